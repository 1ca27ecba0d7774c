//go:build !linux

package stdio

import "os"

// setPipeSize does nothing: only Linux lets a program size a pipe.
func setPipeSize(*os.File, int) {}

// sendFile reports that it sent nothing: the caller copies.
func sendFile(_, _ *os.File, _ int64) (int64, bool, error) { return 0, false, nil }
