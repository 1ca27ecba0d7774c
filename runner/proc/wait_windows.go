//go:build windows

package proc

import "os/exec"

// Wait waits for cmd's process to end and returns how it ended. Windows
// processes do not stop, so stopped is never called.
func Wait(cmd *exec.Cmd, stopped func()) Status {
	_ = cmd.Wait()
	return statusOf(cmd.ProcessState)
}
