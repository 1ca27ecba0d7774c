//go:build windows

package proc

import (
	"os/exec"

	"github.com/b0a38808/retry/exitcodes"
)

// Wait waits for cmd's process to end and returns how it ended (the
// ExitCode and Signal of an exitcodes.Exit). Windows
// processes do not stop, so stopped is never called; reaped, when not
// nil, is called with the status once cmd.Wait has returned (it has
// released the output too).
func Wait(cmd *exec.Cmd, stopped func(), reaped func(exitcodes.Exit)) exitcodes.Exit {
	_ = cmd.Wait()
	st := exitOf(cmd.ProcessState)
	if reaped != nil {
		reaped(st)
	}
	return st
}
