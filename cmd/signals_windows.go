//go:build windows

package cmd

import "os"

// forwardedSignals are the signals retry passes on to the running attempt:
// on Windows, Ctrl-C and Ctrl-Break.
func forwardedSignals() []os.Signal {
	return []os.Signal{os.Interrupt}
}

// ignoreJobControl does nothing: Windows has no job-control signals.
func ignoreJobControl() {}
