// Package testcommand makes a package's test binary the command its tests
// run: the same on every OS, where sh and the Unix tools may be missing.
// It is internal: other Go programs cannot import it.
package testcommand

import (
	"fmt"
	"os"
	"strings"
)

// Binary, called first in TestMain, makes this run of the test binary a
// test's command when its first argument is arg: it exits with the status
// run returns for the arguments after arg. Otherwise it returns the test
// binary's path, which runs the command given arg first, and lets the
// tests go on.
func Binary(arg string, run func(args []string) int) string {
	if len(os.Args) > 1 && os.Args[1] == arg {
		os.Exit(run(os.Args[2:]))
	}
	exe, err := os.Executable()
	if err != nil {
		fmt.Fprintln(os.Stderr, "tests: the test binary's path:", err)
		os.Exit(2)
	}
	// Under -race a binary that exits 0 first sleeps a second
	// (atexit_sleep_ms), which would add a second to every command.
	os.Setenv("GORACE", strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0"))
	return exe
}
