//go:build unix

package cmd

import (
	"os"
	"os/signal"
	"syscall"
)

// forwardedSignals are the signals retry passes on to the running attempt.
func forwardedSignals() []os.Signal {
	return []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2}
}

// ignoreJobControl makes sure SIGTTOU and SIGTTIN never stop retry: it
// takes the terminal's foreground back from an attempt while it is itself
// in the background.
func ignoreJobControl() {
	signal.Ignore(syscall.SIGTTOU, syscall.SIGTTIN)
}
