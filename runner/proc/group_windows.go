//go:build windows

package proc

import (
	"os/exec"
	"syscall"
)

// Prepare starts cmd in a new process group. Windows has no process-group
// signals: Signal can only terminate the attempt's first process.
func Prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= syscall.CREATE_NEW_PROCESS_GROUP
}

// Signal terminates cmd's process: Windows cannot deliver other signals,
// nor signal a whole group.
func Signal(cmd *exec.Cmd, _ syscall.Signal) error {
	if cmd.Process == nil {
		return nil
	}
	return cmd.Process.Kill()
}

// GroupRunning reports false: Windows cannot signal the rest of a group.
func GroupRunning(*exec.Cmd) bool { return false }
