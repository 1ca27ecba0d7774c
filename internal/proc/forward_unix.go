//go:build unix

package proc

import (
	"os"
	"os/signal"
	"syscall"
)

// Forwarded returns the signals retry passes on to the running attempt.
func Forwarded() []os.Signal {
	return []os.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2}
}

// IgnoreJobControl makes sure SIGTTOU and SIGTTIN never stop retry: it
// takes the terminal's foreground back from an attempt while it is itself
// in the background.
func IgnoreJobControl() {
	signal.Ignore(syscall.SIGTTOU, syscall.SIGTTIN)
}
