// Package floorexec runs a command as the start-up floor programs do
// (bench/floor, bench/floor-signals, bench/floor-cobra): with os/exec, on
// the program's own stdin, stdout and stderr, and nothing else. Other Go
// programs can import it, but it is not API: it serves the benchmarks.
package floorexec

import (
	"errors"
	"os"
	"os/exec"
)

// Run runs args as a command and returns the status to exit with: the
// command's own, 125 when args is empty, 127 when the command could not be
// started. started, when not nil, is called with the process once it runs.
func Run(args []string, started func(*os.Process)) int {
	if len(args) == 0 {
		os.Stderr.WriteString("floor: missing command\n")
		return 125
	}
	c := exec.Command(args[0], args[1:]...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	if err := c.Start(); err != nil {
		os.Stderr.WriteString("floor: " + err.Error() + "\n")
		return 127
	}
	if started != nil {
		started(c.Process)
	}
	var exit *exec.ExitError
	if err := c.Wait(); errors.As(err, &exit) {
		return exit.ExitCode()
	}
	return 0
}
