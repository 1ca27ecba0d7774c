package client

import (
	"errors"
	"fmt"
	"io"
	"os/exec"
	"time"
)

// Spawn runs args[0] with args[1:], its standard streams on the null
// device, waits for it, and writes to stdout one line: its exit code (-1
// when a signal ended it), its peak RSS in bytes from wait4's rusage (0
// where unknown) and its time in nanoseconds.
//
// The bench starts retry through Spawn because of what Linux counts: a Go
// program starts a child with vfork semantics, so the child execs while it
// still shares its parent's memory, and the kernel folds that memory's
// peak into the child's ru_maxrss at exec. Started by the bench, retry
// would report the bench's RSS; started by this small program, the most
// it inherits is this program's.
func Spawn(args []string, stdout, stderr io.Writer) int {
	if len(args) == 0 {
		fmt.Fprintln(stderr, "stormclient: usage: stormclient -spawn PROGRAM [ARG]...")
		return 2
	}
	cmd := exec.Command(args[0], args[1:]...)
	start := time.Now()
	err := cmd.Run()
	wall := time.Since(start)
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		fmt.Fprintf(stderr, "stormclient: %v\n", err)
		return 1
	}
	fmt.Fprintf(stdout, "%d %d %d\n", cmd.ProcessState.ExitCode(), maxRSS(cmd.ProcessState), wall.Nanoseconds())
	return 0
}

// Run is stormclient's main: Spawn with "-spawn" first, else Main.
func Run(args []string, attempt string, stdout, stderr io.Writer) int {
	if len(args) > 0 && args[0] == "-spawn" {
		return Spawn(args[1:], stdout, stderr)
	}
	return Main(args, attempt, stderr)
}
