//go:build unix

package cmd

import (
	"syscall"
	"time"
)

// raise makes retry die by sig, as its attempt did or as the signal that
// cancelled it would have: the default action restored, and no core dump
// (retry did not crash; its attempt did, and dumped its own core if it
// could).
func raise(sig int) {
	s := syscall.Signal(sig)
	_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
	if !setDefaultAction(s) {
		return // the caller exits with 128+sig instead
	}
	_ = syscall.Kill(syscall.Getpid(), s)
	// A stopping signal, or one the system delivers late, leaves us here
	// briefly; the caller then exits with 128+sig.
	time.Sleep(10 * time.Millisecond)
}
