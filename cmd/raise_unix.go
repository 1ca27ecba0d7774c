//go:build unix

package cmd

import (
	"os/signal"
	"syscall"
	"time"
)

// raise makes retry die by sig, as its attempt did: the default action
// restored, and no core dump (retry did not crash; its attempt did).
func raise(sig int) {
	s := syscall.Signal(sig)
	_ = syscall.Setrlimit(syscall.RLIMIT_CORE, &syscall.Rlimit{})
	signal.Reset(s)
	_ = syscall.Kill(syscall.Getpid(), s)
	// A stopping signal, or one the system delivers late, leaves us here
	// briefly; the caller then exits with 128+sig.
	time.Sleep(10 * time.Millisecond)
}
