package proc

import (
	"os"
	"syscall"

	"github.com/b0a38808/retry/exitcodes"
)

// exitOf reads how a process ended from what os/exec recorded: its
// ExitCode (-1 after a signal) and Signal.
func exitOf(ps *os.ProcessState) exitcodes.Exit {
	if ps == nil {
		return exitcodes.Exit{ExitCode: -1}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return exitcodes.Exit{ExitCode: -1, Signal: ws.Signal()}
	}
	return exitcodes.Exit{ExitCode: ps.ExitCode()}
}
