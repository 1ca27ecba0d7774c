//go:build !linux

package stdio

import "os"

// setPipeSize does nothing: only Linux lets a program size a pipe.
func setPipeSize(*os.File, int) {}
