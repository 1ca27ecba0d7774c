//go:build unix

package proc

import (
	"errors"
	"os/exec"
	"syscall"
)

// Prepare makes cmd start as the leader of a new process group, so the
// attempt and everything it starts can be signalled together, and, where
// the system allows, die with retry.
func Prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.Setpgid = true
	setParentDeathSignal(cmd.SysProcAttr)
}

// Signal sends sig to every process in the group that cmd's process leads.
// A group that is already gone is not an error.
func Signal(cmd *exec.Cmd, sig syscall.Signal) error {
	if cmd.Process == nil {
		return nil
	}
	err := syscall.Kill(-cmd.Process.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// GroupRunning reports whether a process of the group that cmd's process
// led still runs, now that that process has been waited for. A zombie
// does not count: it has ended, and where nothing reaps orphans (a
// container without an init) it would count for ever.
func GroupRunning(cmd *exec.Cmd) bool {
	if cmd.Process == nil {
		return false
	}
	if err := syscall.Kill(-cmd.Process.Pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	return groupLiving(cmd.Process.Pid)
}
