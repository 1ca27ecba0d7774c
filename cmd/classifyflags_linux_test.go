package cmd

import (
	"os"
	"strconv"
	"syscall"
	"testing"

	"golang.org/x/sys/unix"

	"github.com/b0a38808/retry/runner/classify"
)

// openTerminal returns the terminal end of a new pseudo-terminal.
func openTerminal(t *testing.T) *os.File {
	t.Helper()
	ptmx, err := os.OpenFile("/dev/ptmx", os.O_RDWR, 0)
	if err != nil {
		t.Skip("no pseudo-terminals here:", err)
	}
	t.Cleanup(func() { ptmx.Close() })
	fd := int(ptmx.Fd())
	if err := unix.IoctlSetPointerInt(fd, unix.TIOCSPTLCK, 0); err != nil {
		t.Fatal(err)
	}
	n, err := unix.IoctlGetInt(fd, unix.TIOCGPTN)
	if err != nil {
		t.Fatal(err)
	}
	tty, err := os.OpenFile("/dev/pts/"+strconv.Itoa(n), os.O_RDWR|syscall.O_NOCTTY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { tty.Close() })
	return tty
}

// TestDefaultHintLeavesTerminals checks which streams the default
// Retry-After hint reads, alone: every watched stream that is not a
// terminal, and none that is; and stdout and stderr both when they are
// one stream, whatever --match says.
func TestDefaultHintLeavesTerminals(t *testing.T) {
	tty := openTerminal(t)
	file, err := os.Create(t.TempDir() + "/out")
	if err != nil {
		t.Fatal(err)
	}
	defer file.Close()
	again, err := os.OpenFile(file.Name(), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer again.Close()
	for _, tc := range []struct {
		name           string
		opts           classifyOptions
		stdout, stderr *os.File
		stderrHeld     bool
		hints          bool
		match          classify.StreamChoice
	}{
		{"stderr a file", classifyOptions{match: "stderr"}, tty, file, false, true, classify.MatchStderr},
		{"stderr a terminal", classifyOptions{match: "stderr"}, file, tty, false, false, classify.MatchStderr},
		{"stderr a terminal, held by --stderr final", classifyOptions{match: "stderr"}, file, tty, true, true, classify.MatchStderr},
		{"stdout and stderr one stream", classifyOptions{match: "stderr"}, file, file, false, true, classify.MatchBoth},
		{"stdout and stderr one stream, --match stdout", classifyOptions{match: "stdout"}, file, file, false, true, classify.MatchBoth},
		{"stdout and stderr one stream, stderr held", classifyOptions{match: "stderr"}, file, file, true, true, classify.MatchBoth},
		{"one file opened twice", classifyOptions{match: "stderr"}, file, again, false, false, classify.MatchStderr},
		{"one file opened twice, stderr held", classifyOptions{match: "stderr"}, file, again, true, true, classify.MatchStderr},
		{"one terminal for both", classifyOptions{match: "both"}, tty, tty, false, false, classify.MatchBoth},
		{"one terminal for both, a rule reads it", classifyOptions{match: "stderr", retryIf: []string{"x"}}, tty, tty, false, true, classify.MatchStderr},
		{"both, stdout a terminal", classifyOptions{match: "both"}, tty, file, false, true, classify.MatchStderr},
		{"both, stderr a terminal", classifyOptions{match: "both"}, file, tty, false, true, classify.MatchStdout},
		{"a rule reads a terminal anyway", classifyOptions{match: "stderr", retryIf: []string{"x"}}, file, tty, false, true, classify.MatchStderr},
		{"--hint-pattern reads a terminal anyway", classifyOptions{match: "stderr", hintPattern: "(x)"}, file, tty, false, true, classify.MatchStderr},
	} {
		t.Run(tc.name, func(t *testing.T) {
			tc.opts.maxHint, tc.opts.onAmbiguous = "5m", "retry"
			r, err := tc.opts.rules(tc.stdout, tc.stderr, false, tc.stderrHeld)
			if err != nil {
				t.Fatal(err)
			}
			if r.Hints != tc.hints || r.Read != tc.match {
				t.Errorf("hints %v, match %v; want %v, %v", r.Hints, r.Read, tc.hints, tc.match)
			}
		})
	}
}
