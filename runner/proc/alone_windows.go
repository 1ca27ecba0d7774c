//go:build windows

package proc

import "os/exec"

// StartAlone starts cmd; Windows passes a new process only the handles
// it is given.
func StartAlone(cmd *exec.Cmd) error { return cmd.Start() }
