package cmd

import (
	"bytes"
	"io"
	"runtime"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/b0a38808/retry/internal/ci"
	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/classify"
)

// Header lines and folds are written under a CI only, never to a
// terminal, and never under -q.
func TestCIMarksWhere(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil || runtime.GOOS == "windows" {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	getenv := func(string) string { return "" }
	for _, tt := range []struct {
		name   string
		w      io.Writer
		system ci.System
		quiet  bool
		want   bool
	}{
		{"gitlab, a log", &bytes.Buffer{}, ci.GitLab{}, false, true},
		{"gitlab, a terminal", tty, ci.GitLab{}, false, false},
		{"gitlab, -q", &bytes.Buffer{}, ci.GitLab{}, true, false},
		{"no CI", &bytes.Buffer{}, nil, false, false},
	} {
		p := &reporter{w: tt.w, quiet: tt.quiet, getenv: getenv, givenName: "x", command: []string{"x"}, ci: ciRun{system: tt.system, groups: ci.GroupsAuto}}
		if got := p.marks(); got != tt.want {
			t.Errorf("%s: marks() = %v, want %v", tt.name, got, tt.want)
		}
		if b, ok := tt.w.(*bytes.Buffer); ok {
			p.now = time.Now
			p.AttemptStarted(&runner.Attempt{Number: 1}, 3)
			p.AttemptFinished(&runner.Attempt{Number: 1, Class: classify.Success}, 3, false)
			if (b.Len() > 0) != tt.want {
				t.Errorf("%s: wrote %q", tt.name, b.String())
			}
		}
	}
}
