//go:build unix

package cmd

import (
	"bytes"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/spf13/pflag"
)

// freeValues are the flags whose values only a parser reads: they get any
// text. Every other flag (one that names a file or a directory, one that
// runs a command, one added later) gets only harmlessValues, relative
// names in the fuzz's own directory.
var freeValues = []string{
	"attempts", "until", "deadline", "timeout", "kill-after", "stop-signal", "delay",
	"max-delay", "jitter", "seed", "idempotency-key", "summary", "redact",
	"retry-on", "stop-on", "retry-if", "stop-if", "match", "preset",
	"hint-pattern", "max-hint", "on-ambiguous", "budget-ratio",
	"max-concurrent", "stdin", "stdout", "ci", "ci-groups", "ci-annotations",
	"flaky-exit", "exhausted-exit",
}

var harmlessValues = []string{"x", "0", "1", "-1", "1ms", "r.json", "st", "true", "false"}

// pooledValues are values worth trying on any parser.
var pooledValues = []string{
	"", "0", "1", "-1", "3", "1ms", "0.5", "1e309", "NaN", "inf", "-0", "2d",
	"1h", "9223372036854775808", "TERM", "9", "full", "none", "both",
	"stdout", "final", "replay", "null", "stop", "retry", "curl", "1,2-3", "fail", "success",
	"255", "256", "a(", "(?i)x", "\x00", "--", "-a", "=", " ", "ümlaut",
}

// FuzzCommandLine throws flags and values at retry's command line, in
// process, with commands that can do no harm (true, false) under an
// enclosing retry's deadline a few hundred milliseconds away: each either
// runs, or exits 125 with one "retry: " line (and perhaps a hint), and
// never panics or prints a Go trace.
func FuzzCommandLine(f *testing.F) {
	// Each input runs in a directory of its own (t.Chdir, not f.Chdir:
	// the fuzzing engine writes a failing input under the package's
	// testdata, relative to the working directory).
	dir := f.TempDir()
	f.Setenv("XDG_STATE_HOME", dir)
	f.Setenv("HOME", dir)
	for _, name := range []string{"RETRY_ATTEMPT", "RETRY_MAX_ATTEMPTS", "RETRY_IDEMPOTENCY_KEY", "GITHUB_ACTIONS", "GITLAB_CI", "RETRY_BUDGET_STORE"} {
		f.Setenv(name, "")
	}
	// No attempt may take a terminal or read the test's own stdin.
	null, err := os.Open(os.DevNull)
	if err != nil {
		f.Fatal(err)
	}
	stdin := os.Stdin
	os.Stdin = null
	f.Cleanup(func() { os.Stdin = stdin; null.Close() })

	var flags []*pflag.Flag
	newRootCommand("fuzz", nil, nil, nil, nil).Flags().VisitAll(func(fl *pflag.Flag) { flags = append(flags, fl) })

	for _, seed := range [][]byte{
		{},
		{0, 0, 5, 1, 0, 1},
		[]byte("\x01\x00\x02" + "\x07\x01\x80"),
		[]byte("\x10\x01\x03a(b\x11\x02\x82"),
		[]byte("\x05\x00\x90\x06\x01\x95\x22\x00\x81"),
	} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, data []byte) {
		t.Chdir(dir)
		args := commandLine(flags, data)
		// An enclosing retry's deadline bounds every wait and attempt.
		t.Setenv("RETRY_DEPTH", "1")
		t.Setenv("RETRY_DEADLINE", time.Now().Add(300*time.Millisecond).UTC().Format("2006-01-02T15:04:05.000Z07:00"))
		var stdout, stderr bytes.Buffer
		status := execute("fuzz", args, &stdout, &stderr)
		out := stderr.String()
		if strings.Contains(out, "goroutine ") || strings.Contains(out, "panic") {
			t.Fatalf("retry %q printed a Go trace:\n%s", args, out)
		}
		if status.code != 125 {
			return
		}
		var errs []string
		for line := range strings.Lines(out) {
			switch {
			case !strings.HasPrefix(line, "retry: "):
				t.Fatalf("retry %q exited 125 with a line that is not retry's own: %q\n%s", args, line, out)
			case !strings.HasPrefix(line, "retry: hint: ") && !strings.HasPrefix(line, "retry: warning: "):
				errs = append(errs, line)
			}
		}
		if len(errs) != 1 {
			t.Fatalf("retry %q exited 125 with %d error lines, want 1:\n%s", args, len(errs), out)
		}
	})
}

// commandLine makes a command line of data: each flag is a byte's
// choice, written in one of its forms (--name VALUE, --name=VALUE, -n
// VALUE), its value drawn from a pool or, for a flag that only a parser
// reads, from data itself. The command is true or false, after "--".
func commandLine(flags []*pflag.Flag, data []byte) []string {
	next := func() byte {
		if len(data) == 0 {
			return 0
		}
		b := data[0]
		data = data[1:]
		return b
	}
	command := []string{"true"}
	if next()%2 == 1 {
		command = []string{"false"}
	}
	var args []string
	for n := 0; len(data) > 0 && n < 10; n++ {
		fl := flags[int(next())%len(flags)]
		form := next() % 3
		var value string
		switch v := next(); {
		case fl.NoOptDefVal != "":
			value = harmlessValues[int(v)%len(harmlessValues)]
		case !slices.Contains(freeValues, fl.Name):
			value = harmlessValues[int(v)%len(harmlessValues)]
		case v < 0x80 && len(data) > 0:
			n := min(1+int(v)%16, len(data))
			value, data = string(data[:n]), data[n:]
		default:
			value = pooledValues[int(v)%len(pooledValues)]
		}
		switch {
		case fl.NoOptDefVal != "" && form != 1:
			args = append(args, "--"+fl.Name) // a switch takes no word of its own
		case fl.NoOptDefVal != "":
			args = append(args, "--"+fl.Name+"="+value)
		case form == 1:
			args = append(args, "--"+fl.Name+"="+value)
		case form == 2 && fl.Shorthand != "":
			args = append(args, "-"+fl.Shorthand, value)
		default:
			args = append(args, "--"+fl.Name, value)
		}
	}
	return append(append(args, "--"), command...)
}
