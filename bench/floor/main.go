// Command floor is the start-up floor for a command wrapper written in Go: it
// runs its arguments as a command with os/exec, waits for it, and exits with
// the command's status. It does nothing else, so no Go wrapper can start and
// run a command faster; bench/startup.sh measures retry against it. It is
// a benchmark, not API.
//
// Usage:
//
//	floor COMMAND [ARG...]
package main

import (
	"os"

	"github.com/b0a38808/retry/bench/floorexec"
)

func main() {
	os.Exit(floorexec.Run(os.Args[1:], nil))
}
