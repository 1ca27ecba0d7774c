//go:build windows

package proc

import "os/exec"

// Wait waits for cmd's process to end and returns how it ended. Windows
// processes do not stop, so stopped is never called; reaped, when not
// nil, is called once cmd.Wait has returned.
func Wait(cmd *exec.Cmd, stopped, reaped func()) Status {
	_ = cmd.Wait()
	if reaped != nil {
		reaped()
	}
	return statusOf(cmd.ProcessState)
}
