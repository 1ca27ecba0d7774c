//go:build windows

package cmd

import (
	"os"
	"syscall"
)

// forwardedSignals are the signals retry passes on to the running attempt:
// on Windows, Ctrl-C and Ctrl-Break (os.Interrupt), and closing the
// console, logging off or shutting down (syscall.SIGTERM). Passing one on
// terminates the attempt.
func forwardedSignals() []os.Signal {
	return []os.Signal{os.Interrupt, syscall.SIGTERM}
}

// ignoreJobControl does nothing: Windows has no job-control signals.
func ignoreJobControl() {}
