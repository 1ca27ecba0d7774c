//go:build windows

package proc

import (
	"os"
	"syscall"
)

// Forwarded returns the signals retry passes on to the running attempt:
// on Windows, Ctrl-C and Ctrl-Break (os.Interrupt), and closing the
// console, logging off or shutting down (syscall.SIGTERM). Passing one on
// terminates the attempt.
func Forwarded() []os.Signal {
	return []os.Signal{os.Interrupt, syscall.SIGTERM}
}

// IgnoreJobControl does nothing: Windows has no job-control signals.
func IgnoreJobControl() {}
