package proc

import (
	"os"
	"syscall"
)

// Status is how an attempt's first process ended.
type Status struct {
	// ExitCode is the exit status; -1 when the process died from a signal.
	ExitCode int
	// Signal is the signal the process died from, 0 when it exited.
	Signal syscall.Signal
}

// statusOf reads a Status from what os/exec recorded.
func statusOf(ps *os.ProcessState) Status {
	if ps == nil {
		return Status{ExitCode: -1}
	}
	if ws, ok := ps.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
		return Status{ExitCode: -1, Signal: ws.Signal()}
	}
	return Status{ExitCode: ps.ExitCode()}
}
