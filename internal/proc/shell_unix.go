//go:build unix

package proc

import "os/exec"

// ShellName names the shell that Shell runs, as explain shows it.
const ShellName = "/bin/sh -c"

// Shell returns the command that runs script with /bin/sh -c.
func Shell(script string) *exec.Cmd {
	return exec.Command("/bin/sh", "-c", script)
}
