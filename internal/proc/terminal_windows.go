//go:build windows

package proc

import (
	"os"
	"os/exec"
)

// Terminal does nothing on Windows, which has no process-group job
// control: a console delivers Ctrl-C to every process attached to it.
type Terminal struct{}

// NewTerminal returns a Terminal that does nothing.
func NewTerminal(*os.File) *Terminal { return &Terminal{} }

// Hand reports that cmd will not have the foreground.
func (*Terminal) Hand(*exec.Cmd) bool { return false }

// Restore does nothing.
func (*Terminal) Restore() {}

// Reclaim does nothing.
func (*Terminal) Reclaim(int) {}

// Suspend does nothing.
func (*Terminal) Suspend(int) {}

// HungUp reports false: a console does not hang up a process group.
func (*Terminal) HungUp() bool { return false }
