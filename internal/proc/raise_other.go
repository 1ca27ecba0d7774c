//go:build !unix

package proc

import "syscall"

// Raise does nothing where a process cannot send itself a signal; the
// caller exits with 128+sig instead.
func Raise(syscall.Signal) {}
