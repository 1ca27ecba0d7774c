// Command floor is the start-up floor for a command wrapper written in Go: it
// runs its arguments as a command with os/exec, waits for it, and exits with
// the command's status. It does nothing else, so no Go wrapper can start and
// run a command faster; bench/startup.sh measures retry against it.
//
// Usage:
//
//	floor COMMAND [ARG...]
package main

import (
	"errors"
	"os"
	"os/exec"
)

func main() {
	if len(os.Args) < 2 {
		os.Stderr.WriteString("floor: missing command\n")
		os.Exit(125)
	}
	c := exec.Command(os.Args[1], os.Args[2:]...)
	c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
	err := c.Run()
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		os.Exit(exit.ExitCode())
	default:
		os.Stderr.WriteString("floor: " + err.Error() + "\n")
		os.Exit(127)
	}
}
