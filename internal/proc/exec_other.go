//go:build !unix

package proc

import "os/exec"

// Exec starts cmd: cmd.Start.
func Exec(cmd *exec.Cmd) error { return cmd.Start() }
