//go:build unix

package proc

import (
	"errors"
	"syscall"

	"github.com/b0a38808/retry/exitcodes"
)

// Wait waits for the group's first process to end and returns how it
// ended (the ExitCode and Signal of an exitcodes.Exit). Each time the
// process stops instead (Ctrl-Z at its terminal, SIGSTOP), stopped is
// called, in the waiting goroutine, before waiting goes on; a nil stopped
// ignores stops. os/exec cannot report stops, so Wait reaps the process
// itself and then lets cmd.Wait release the rest (the goroutines copying
// output, the pipes, which a process the attempt left behind may hold for
// up to cmd.WaitDelay). reaped, when not nil, is called with the status as
// soon as the process has been reaped, before the rest is released.
func (g *Group) Wait(stopped func(), reaped func(exitcodes.Exit)) exitcodes.Exit {
	cmd := g.cmd
	var ws syscall.WaitStatus
	for {
		_, err := syscall.Wait4(cmd.Process.Pid, &ws, syscall.WUNTRACED, nil)
		if errors.Is(err, syscall.EINTR) {
			continue
		}
		if err != nil {
			_ = cmd.Wait()
			st := exitOf(cmd.ProcessState)
			if reaped != nil {
				reaped(st)
			}
			return st
		}
		if !ws.Stopped() {
			break
		}
		if stopped != nil {
			stopped()
		}
	}
	st := exitcodes.Exit{ExitCode: ws.ExitStatus()}
	if ws.Signaled() {
		st = exitcodes.Exit{ExitCode: -1, Signal: ws.Signal()}
	}
	if reaped != nil {
		reaped(st)
	}
	// The process is reaped: cmd.Wait reports "no child processes", and
	// still waits for the output and closes the pipes.
	_ = cmd.Wait()
	return st
}
