//go:build linux || darwin

package testscript_test

import (
	"slices"
	"strings"
	"testing"
)

// A terminal that is both stdout and stderr (one open file, as a shell
// hands it over) is not one stream to join: it stays the command's own
// wherever nothing needs to read it, as with separate streams. A rule
// that reads stderr gets it through retry, and stdout stays the terminal;
// the default hint alone leaves both.
func TestTerminalIsNotOneStream(t *testing.T) {
	for _, tc := range []struct {
		flags []string
		ttys  []string // the command's streams that are the terminal
	}{
		{nil, []string{"stdout", "stderr"}},
		{[]string{"--retry-if", "x"}, []string{"stdout"}},
		{[]string{"--match", "stdout", "--retry-if", "x"}, []string{"stderr"}},
		{[]string{"--match", "both", "--retry-if", "x"}, nil},
	} {
		t.Run(strings.Join(append([]string{"retry"}, tc.flags...), " "), func(t *testing.T) {
			args := append(append([]string{"-a", "1"}, tc.flags...), "--", "sh", "-c",
				`[ -t 1 ] && echo stdout >>ttys; [ -t 2 ] && echo stderr >>ttys; echo ran >>ttys`)
			s := startSession(t, "retry", args...)
			if ws := s.wait(); !ws.Exited() || ws.ExitStatus() != 0 {
				t.Fatalf("retry ended with %#x; the terminal showed:\n%s", ws, s.shown())
			}
			got := s.lines("ttys")
			want := append(slices.Clone(tc.ttys), "ran")
			if !slices.Equal(got, want) {
				t.Errorf("the command's terminals, then \"ran\": %q; want %q", got, want)
			}
		})
	}
}
