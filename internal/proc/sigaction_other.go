//go:build unix && !linux

package proc

import (
	"os/signal"
	"syscall"
)

// setDefaultAction restores Go's handling of sig and reports whether that
// is to die by it: for SIGQUIT, SIGILL, SIGTRAP, SIGABRT, SIGEMT and
// SIGSYS Go prints a goroutine dump and exits 2, and it ignores SIGUSR1,
// SIGUSR2 and others it would not die by; then retry exits 128+sig.
func setDefaultAction(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGHUP, syscall.SIGINT, syscall.SIGTERM, syscall.SIGPIPE, syscall.SIGALRM,
		syscall.SIGKILL, syscall.SIGXCPU, syscall.SIGXFSZ, syscall.SIGVTALRM, syscall.SIGPROF:
		signal.Reset(sig)
		return true
	}
	return false
}
