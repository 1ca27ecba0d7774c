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

// groupSys is empty: the process group is named by the first process's
// pid. Group's field of this type is used on Windows only.
//
//lint:ignore U1000 the type of Group's sys field, which only Windows fills
type groupSys struct{}

// Start starts cmd, prepared with Prepare, with start (cmd.Start, or a
// function that calls it) and returns its group.
func Start(cmd *exec.Cmd, start func() error) (*Group, error) {
	if err := start(); err != nil {
		return nil, err
	}
	return &Group{cmd: cmd}, nil
}

// Signal sends sig to every process in the group. A group that is already
// gone is not an error.
func (g *Group) Signal(sig syscall.Signal) error {
	err := syscall.Kill(-g.cmd.Process.Pid, sig)
	if errors.Is(err, syscall.ESRCH) {
		return nil
	}
	return err
}

// Running reports whether a process of the group still runs, now that
// its first process has been waited for. A zombie does not count: it has
// ended, and where nothing reaps orphans (a container without an init) it
// would count for ever.
func (g *Group) Running() bool {
	if err := syscall.Kill(-g.cmd.Process.Pid, 0); errors.Is(err, syscall.ESRCH) {
		return false
	}
	return groupLiving(g.cmd.Process.Pid)
}
