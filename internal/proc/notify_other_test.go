//go:build unix && !(linux && (amd64 || arm64))

package proc

import "syscall"

// action cannot read a signal's action here.
func action(syscall.Signal) (uintptr, bool) { return 0, false }
