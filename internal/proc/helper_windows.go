//go:build windows

package proc

import "os/exec"

// StartHelper starts cmd; Windows passes a new process only the handles
// it is given.
func StartHelper(cmd *exec.Cmd) error { return cmd.Start() }
