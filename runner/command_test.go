package runner

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/internal/testcommand"
)

// commandArg, as the first argument of the test binary, makes it an
// attempt's command (see command) instead of running the tests: the same
// on every OS, where sh, true and false may be missing.
const commandArg = "-runner-test-command"

// testBinary is the path of the test binary, set by TestMain.
var testBinary string

func TestMain(m *testing.M) {
	testBinary = testcommand.Binary(commandArg, runCommand)
	os.Exit(m.Run())
}

// command returns the command line of an attempt that does steps, in
// order, each a word and its arguments:
//
//	append FILE TEXT  appends TEXT, $VARIABLEs expanded, and a newline to FILE
//	runs FILE N       counts this run in FILE, and exits 0 before run N
//	sleep DURATION    sleeps for DURATION
//	exit STATUS       exits with STATUS
//
// and exits 0 after the last.
func command(steps ...string) []string {
	return append([]string{testBinary, commandArg}, steps...)
}

// runCommand does command's steps and returns the exit status.
func runCommand(steps []string) int {
	fail := func(format string, a ...any) int {
		fmt.Fprintf(os.Stderr, "runner test command: "+format+"\n", a...)
		return 125
	}
	for len(steps) > 0 {
		switch {
		case steps[0] == "append" && len(steps) >= 3:
			f, err := os.OpenFile(steps[1], os.O_WRONLY|os.O_CREATE|os.O_APPEND, 0o644)
			if err != nil {
				return fail("%v", err)
			}
			_, err = fmt.Fprintln(f, os.ExpandEnv(steps[2]))
			if cerr := f.Close(); err == nil {
				err = cerr
			}
			if err != nil {
				return fail("%v", err)
			}
			steps = steps[3:]
		case steps[0] == "runs" && len(steps) >= 3:
			data, err := os.ReadFile(steps[1])
			if err != nil && !errors.Is(err, fs.ErrNotExist) {
				return fail("%v", err)
			}
			runs, _ := strconv.Atoi(strings.TrimSpace(string(data)))
			runs++
			if err := os.WriteFile(steps[1], []byte(strconv.Itoa(runs)+"\n"), 0o644); err != nil {
				return fail("%v", err)
			}
			n, err := strconv.Atoi(steps[2])
			if err != nil {
				return fail("%v", err)
			}
			if runs < n {
				return 0
			}
			steps = steps[3:]
		case steps[0] == "sleep" && len(steps) >= 2:
			d, err := time.ParseDuration(steps[1])
			if err != nil {
				return fail("%v", err)
			}
			time.Sleep(d)
			steps = steps[2:]
		case steps[0] == "exit" && len(steps) >= 2:
			status, err := strconv.Atoi(steps[1])
			if err != nil {
				return fail("%v", err)
			}
			return status
		default:
			return fail("bad steps %q", steps)
		}
	}
	return 0
}

// commandLine returns command(steps...) as one line for sh and for
// cmd.exe, for --on-retry: the binary's path quoted, the steps as they are
// (they must need no quoting).
func commandLine(steps ...string) string {
	line := `"` + testBinary + `" ` + commandArg
	for _, s := range steps {
		line += " " + s
	}
	return line
}

func TestCommand(t *testing.T) {
	if got := runCommand([]string{"exit", "3"}); got != 3 {
		t.Errorf("exit 3: status %d", got)
	}
	if got := runCommand([]string{"frobnicate"}); got != 125 {
		t.Errorf("a bad step: status %d, want 125", got)
	}
}
