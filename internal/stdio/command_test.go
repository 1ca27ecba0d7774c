package stdio

import (
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"testing"

	"github.com/b0a38808/retry/internal/testcommand"
)

// commandArg, as the first argument of the test binary, makes it an
// attempt's command (see command) instead of running the tests: the same
// on every OS, where sh, cat and head may be missing.
const commandArg = "-stdio-test-command"

// testBinary is the path of the test binary, set by TestMain.
var testBinary string

func TestMain(m *testing.M) {
	testBinary = testcommand.Binary(commandArg, runCommand)
	os.Exit(m.Run())
}

// command returns a process that does steps, in order, each a word and
// its arguments:
//
//	cat          copies stdin to stdout
//	head N       copies the first N bytes of stdin to stdout, reading no more
//	exit STATUS  exits with STATUS
//
// and exits 0 after the last.
func command(steps ...string) *exec.Cmd {
	return exec.Command(testBinary, append([]string{commandArg}, steps...)...)
}

// runCommand does command's steps and returns the exit status.
func runCommand(steps []string) int {
	fail := func(err error) int {
		fmt.Fprintln(os.Stderr, "stdio test command:", err)
		return 125
	}
	for len(steps) > 0 {
		switch {
		case steps[0] == "cat":
			if _, err := io.Copy(os.Stdout, os.Stdin); err != nil {
				return fail(err)
			}
			steps = steps[1:]
		case steps[0] == "head" && len(steps) >= 2:
			n, err := strconv.ParseInt(steps[1], 10, 64)
			if err != nil {
				return fail(err)
			}
			if _, err := io.CopyN(os.Stdout, os.Stdin, n); err != nil && err != io.EOF {
				return fail(err)
			}
			steps = steps[2:]
		case steps[0] == "exit" && len(steps) >= 2:
			status, err := strconv.Atoi(steps[1])
			if err != nil {
				return fail(err)
			}
			return status
		default:
			return fail(fmt.Errorf("bad steps %q", steps))
		}
	}
	return 0
}
