//go:build windows

package proc

import (
	"os"
	"os/exec"
	"path/filepath"
	"syscall"
)

// ShellName names the shell that Shell runs, as explain shows it.
const ShellName = "cmd.exe /c"

// Shell returns the command that runs script with cmd.exe (%ComSpec%):
// cmd /d /s /c "script". The script reaches cmd.exe as it was written,
// quotes, & and > included, as a line typed at its prompt; /d skips the
// AutoRun commands of the registry.
func Shell(script string) *exec.Cmd {
	comspec := os.Getenv("ComSpec")
	if comspec == "" {
		comspec = filepath.Join(os.Getenv("SystemRoot"), "System32", "cmd.exe")
	}
	cmd := exec.Command(comspec)
	cmd.SysProcAttr = &syscall.SysProcAttr{CmdLine: `"` + comspec + `" /d /s /c "` + script + `"`}
	return cmd
}
