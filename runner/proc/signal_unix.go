//go:build unix

package proc

import (
	"syscall"

	"golang.org/x/sys/unix"
)

const maxSignal = 64

func signalName(sig syscall.Signal) string { return unix.SignalName(sig) }

func signalNum(name string) syscall.Signal { return unix.SignalNum(name) }
