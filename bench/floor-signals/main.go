//go:build unix

// Command floor-signals is bench/floor plus what any wrapper that forwards
// signals must do before it starts its command: catch them. It catches the
// signals retry catches (INT, TERM, HUP, QUIT, USR1, USR2 to forward, and
// PIPE) with os/signal, waits until they are caught, so that none of them
// can kill it while the command runs, then runs the command as floor does
// and forwards what it receives. bench/startup.sh measures it to show what
// catching signals costs a Go program before its first fork. It is a
// benchmark, not API.
//
// Usage:
//
//	floor-signals COMMAND [ARG...]
package main

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/b0a38808/retry/bench/floorexec"
)

func main() {
	sigs := make(chan os.Signal, 16)
	signal.Notify(sigs, syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT, syscall.SIGUSR1, syscall.SIGUSR2, syscall.SIGPIPE)
	os.Exit(floorexec.Run(os.Args[1:], func(p *os.Process) {
		go func() {
			for s := range sigs {
				_ = p.Signal(s)
			}
		}()
	}))
}
