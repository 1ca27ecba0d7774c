//go:build windows

package proc

import "syscall"

const maxSignal = 15

// Continue is SIGCONT, which continues a stopped process; 0 where there is
// none (Windows).
const Continue syscall.Signal = 0

var signalNames = map[syscall.Signal]string{
	syscall.SIGHUP:  "SIGHUP",
	syscall.SIGINT:  "SIGINT",
	syscall.SIGQUIT: "SIGQUIT",
	syscall.SIGKILL: "SIGKILL",
	syscall.SIGTERM: "SIGTERM",
}

func signalName(sig syscall.Signal) string { return signalNames[sig] }

func signalNum(name string) syscall.Signal {
	for sig, n := range signalNames {
		if n == name {
			return sig
		}
	}
	return 0
}
