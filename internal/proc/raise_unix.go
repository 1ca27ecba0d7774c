//go:build unix

package proc

import (
	"syscall"
	"time"
)

// Raise makes retry die by sig, as its attempt did or as the signal that
// cancelled it would have: the default action restored, and no core dump
// (retry did not crash; its attempt did, and dumped its own core if it
// could). When it returns, the caller exits with 128+sig instead.
func Raise(sig syscall.Signal) {
	_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
	if !setDefaultAction(sig) {
		return
	}
	_ = syscall.Kill(syscall.Getpid(), sig)
	// A stopping signal, or one the system delivers late, leaves us here
	// briefly; the caller then exits with 128+sig.
	time.Sleep(10 * time.Millisecond)
}
