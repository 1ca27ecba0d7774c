package cmd

import (
	"bytes"
	"io"
	"os"
	"regexp"
	"runtime"
	"testing"

	"github.com/creack/pty"
)

func TestProbeTerminal(t *testing.T) {
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	defer tty.Close()
	onTerminal := runtime.GOOS != "windows"
	tests := []struct {
		name string
		w    io.Writer
		env  map[string]string
		want terminal
	}{
		{"terminal", tty, nil, terminal{colour: onTerminal, live: onTerminal, tty: onTerminal}},
		{"NO_COLOR", tty, map[string]string{"NO_COLOR": "1"}, terminal{live: onTerminal, tty: onTerminal}},
		{"TERM=dumb", tty, map[string]string{"TERM": "dumb"}, terminal{tty: onTerminal}},
		{"FORCE_COLOR beats NO_COLOR", tty, map[string]string{"FORCE_COLOR": "1", "NO_COLOR": "1"}, terminal{colour: true, live: onTerminal, tty: onTerminal}},
		{"FORCE_COLOR=0", tty, map[string]string{"FORCE_COLOR": "0"}, terminal{live: onTerminal, tty: onTerminal}},
		{"FORCE_COLOR=false", tty, map[string]string{"FORCE_COLOR": "false"}, terminal{live: onTerminal, tty: onTerminal}},
		{"buffer", &bytes.Buffer{}, nil, terminal{}},
		{"buffer, FORCE_COLOR", &bytes.Buffer{}, map[string]string{"FORCE_COLOR": "1"}, terminal{colour: true}},
		{"regular file", tempFile(t), nil, terminal{}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := probeTerminal(tt.w, func(k string) string { return tt.env[k] })
			if got != tt.want {
				t.Errorf("got %+v, want %+v", got, tt.want)
			}
		})
	}
}

func tempFile(t *testing.T) *os.File {
	f, err := os.Create(t.TempDir() + "/stderr")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// TestTerminalOutput runs retry with its stderr on a pseudo-terminal and
// checks the colours and the countdown, and that NO_COLOR, FORCE_COLOR=0
// and TERM=dumb take them away.
func TestTerminalOutput(t *testing.T) {
	if runtime.GOOS == "windows" || testing.Short() {
		t.Skip("needs a pty and runs processes")
	}
	args := []string{"-a", "2", "--delay", "300ms", "--max-delay", "300ms", "--jitter", "none", "--", "sh", "-c", "exit 1"}
	colour := regexp.MustCompile(`\x1b\[(31|32|33)m`)
	countdown := regexp.MustCompile(`\r\x1b\[1mretry:\x1b\[0m next attempt in 0\.[0-9]s\x1b\[K`)
	plainCountdown := regexp.MustCompile(`\rretry: next attempt in 0\.[0-9]s\x1b\[K`)
	tests := []struct {
		name                  string
		env                   map[string]string
		colour, live, escapes bool
	}{
		{"colour", nil, true, true, true},
		{"NO_COLOR", map[string]string{"NO_COLOR": "1"}, false, true, true},
		{"FORCE_COLOR=0", map[string]string{"FORCE_COLOR": "0"}, false, true, true},
		{"TERM=dumb", map[string]string{"TERM": "dumb"}, false, false, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, k := range []string{"NO_COLOR", "FORCE_COLOR", "GITLAB_CI", "GITHUB_ACTIONS"} {
				t.Setenv(k, tt.env[k])
			}
			term := tt.env["TERM"]
			if term == "" {
				term = "xterm-256color"
			}
			t.Setenv("TERM", term)
			out := runOnPty(t, args)
			if got := colour.MatchString(out); got != tt.colour {
				t.Errorf("colour codes present: %v, want %v\n%q", got, tt.colour, out)
			}
			live := countdown.MatchString(out) || plainCountdown.MatchString(out)
			if live != tt.live {
				t.Errorf("countdown present: %v, want %v\n%q", live, tt.live, out)
			}
			if tt.live && !regexp.MustCompile(`\r\x1b\[K(\x1b\[1m)?retry:(\x1b\[0m)? (\x1b\[31m)?attempt 2/2 failed`).MatchString(out) {
				t.Errorf("the countdown is not erased before the next line:\n%q", out)
			}
			if got := bytes.ContainsRune([]byte(out), 0x1b); got != tt.escapes {
				t.Errorf("escape codes present: %v, want %v\n%q", got, tt.escapes, out)
			}
			if !regexp.MustCompile(`retry:(\x1b\[0m)? (\x1b\[[0-9;]*m)?attempt 1/2 failed after [0-9.]+s: exit 1 \(retryable: default: exit 1 may be transient\); next attempt in 0\.30s`).MatchString(out) {
				t.Errorf("the progress line is missing:\n%q", out)
			}
		})
	}
}

// runOnPty runs retry in-process with stderr on a pseudo-terminal and
// returns what the terminal received.
func runOnPty(t *testing.T, args []string) string {
	t.Helper()
	ptmx, tty, err := pty.Open()
	if err != nil {
		t.Skipf("no pty: %v", err)
	}
	defer ptmx.Close()
	var out bytes.Buffer
	done := make(chan struct{})
	go func() {
		defer close(done)
		_, _ = io.Copy(&out, ptmx) // ends with EIO once tty is closed
	}()
	status := execute("test", args, io.Discard, tty)
	tty.Close()
	<-done
	if status.code != 1 {
		t.Errorf("exit status %d, want 1", status.code)
	}
	return out.String()
}
