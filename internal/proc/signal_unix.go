//go:build unix

package proc

import (
	"syscall"

	"golang.org/x/sys/unix"
)

const maxSignal = 64

// Continue is SIGCONT, which continues a stopped process; 0 where there is
// none (Windows).
const Continue = syscall.SIGCONT

func signalName(sig syscall.Signal) string { return unix.SignalName(sig) }

func signalNum(name string) syscall.Signal { return unix.SignalNum(name) }
