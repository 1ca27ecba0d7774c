package classify

import (
	"strings"
	"testing"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/runner/match"
)

func TestCheckCommand(t *testing.T) {
	for _, tc := range []struct {
		preset string
		match  StreamChoice
		argv   string
		want   string // a word of the hint; empty: not blind
	}{
		{"curl", MatchStderr, "curl -fsL http://x", "-S"},
		{"curl", MatchStderr, "/usr/bin/curl --silent http://x", "-S"},
		{"curl", MatchStderr, "curl.exe -s http://x", "-S"},
		{"curl", MatchStderr, "curl -fsSL http://x", ""},
		{"curl", MatchStderr, "curl -s --show-error http://x", ""},
		{"curl", MatchStderr, "curl -fL -o out http://x", ""},
		{"curl", MatchStderr, "curl -o -s http://x", ""}, // -s is -o's file
		{"curl", MatchStderr, "curl -H X-s:1 http://x", ""},
		{"curl", MatchStderr, "curl -Ss http://x", ""},
		{"wget", MatchStderr, "wget -q http://x", "-nv"},
		{"wget", MatchStderr, "wget -qO- http://x", "-nv"},
		{"wget", MatchStderr, "wget -nv http://x", ""},
		{"wget", MatchStderr, "wget -O q http://x", ""},
		{"wget", MatchStderr, "wget -o log http://x", "-o"},
		{"ssh", MatchStderr, "ssh -q host true", "drop -q"},
		{"ssh", MatchStderr, "ssh host -q true", "drop -q"},
		{"ssh", MatchStderr, "ssh host ls -q", ""}, // the remote command's
		{"ssh", MatchStderr, "ssh -p 22 -i key host true", ""},
		{"ssh", MatchStderr, "ssh -o LogLevel=QUIET host true", "LogLevel"},
		{"ssh", MatchStderr, "scp -q a host:b", "drop -q"},
		{"ssh", MatchStderr, "scp -P 22 a host:b", ""},
		{"ssh", MatchStderr, "sftp -q host", "drop -q"},
		{"go", MatchStderr, "go mod download -json", "--match both"},
		{"go", MatchBoth, "go mod download -json", ""},
		{"go", MatchStderr, "go build ./...", ""},
		{"curl", MatchStderr, "wget -q http://x", ""}, // not the preset's tool
		{"git", MatchStderr, "git -c x=y fetch -q", ""},
	} {
		p, err := LookupPreset(tc.preset)
		if err != nil {
			t.Fatal(err)
		}
		r := &Rules{Read: tc.match}
		if err := r.AddPreset(p); err != nil {
			t.Fatal(err)
		}
		r.CheckCommand(strings.Fields(tc.argv))
		d := r.Classify(Facts{Exit: exitcodes.Exit{ExitCode: 99}})
		switch {
		case tc.want == "" && d.Advice != "":
			t.Errorf("%s with --preset %s: hint %q, want none", tc.argv, tc.preset, d.Advice)
		case tc.want != "" && !strings.Contains(d.Advice, tc.want):
			t.Errorf("%s with --preset %s: hint %q, want one with %q", tc.argv, tc.preset, d.Advice, tc.want)
		case tc.want != "" && !strings.Contains(d.Reason, "; the rules could not decide: "):
			t.Errorf("%s with --preset %s: reason %q says nothing of why", tc.argv, tc.preset, d.Reason)
		}
	}
}

func TestBlindSilentStream(t *testing.T) {
	r := &Rules{RetryIf: mustPatterns(t, "timed out")}
	d := r.Classify(Facts{Exit: exitcodes.Exit{ExitCode: 1}, Output: match.Output{Silent: true}})
	if want := "not listed: exit 1 matched no --retry-on or --retry-if rule; the rules could not decide: stderr carried nothing"; d.Reason != want {
		t.Errorf("reason %q, want %q", d.Reason, want)
	}
	if !strings.Contains(d.Advice, "--match both") {
		t.Errorf("hint %q names no --match both", d.Advice)
	}
	// A stream that carried something: the rules saw it, and said no.
	d = r.Classify(Facts{Exit: exitcodes.Exit{ExitCode: 1}})
	if d.Advice != "" || strings.Contains(d.Reason, "could not decide") {
		t.Errorf("a stream with output: %q, hint %q", d.Reason, d.Advice)
	}
}

func TestReadsMessages(t *testing.T) {
	for name, want := range map[string]bool{"curl": true, "git": true, "apt": true, "rsync": true, "tempfail": false} {
		p, err := LookupPreset(name)
		if err != nil {
			t.Fatal(err)
		}
		if got := p.ReadsMessages(); got != want {
			t.Errorf("preset %s: ReadsMessages() = %v, want %v", name, got, want)
		}
	}
}

func TestMatcherSilent(t *testing.T) {
	r := &Rules{RetryIf: mustPatterns(t, "x")}
	m := r.NewMatcher(nil)
	_ = m.Writer("stderr").Close()
	if !m.Output().Silent {
		t.Error("no byte written: Output not Silent")
	}
	m = r.NewMatcher(nil)
	w := m.Writer("stderr")
	_, _ = w.Write([]byte("\n"))
	_ = w.Close()
	if m.Output().Silent {
		t.Error("a newline written: Output Silent")
	}
}
