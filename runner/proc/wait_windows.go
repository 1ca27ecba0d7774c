//go:build windows

package proc

import "os/exec"

// Wait waits for cmd's process to end and returns how it ended. Windows
// processes do not stop, so stopped is never called; reaped, when not
// nil, is called with the status once cmd.Wait has returned (it has
// released the output too).
func Wait(cmd *exec.Cmd, stopped func(), reaped func(Status)) Status {
	_ = cmd.Wait()
	st := statusOf(cmd.ProcessState)
	if reaped != nil {
		reaped(st)
	}
	return st
}
