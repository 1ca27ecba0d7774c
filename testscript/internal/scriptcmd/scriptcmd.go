// Package scriptcmd holds the commands that retry's black-box scripts
// share, in testscript and testscript/wine.
package scriptcmd

import (
	"errors"
	"os/exec"
	"strconv"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// Exitcode is the script command exitcode N COMMAND [ARG...]: it runs
// COMMAND and asserts that its exit status is exactly N. A death by
// signal S counts as 128+S, as a shell reports it.
func Exitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N command [arg...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: bad status %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		got = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			got = 128 + int(ws.Signal())
		}
	default:
		ts.Fatalf("exitcode: %v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d; want %d", got, want)
	}
}
