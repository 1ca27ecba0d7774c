package match_test

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/classify"
	"github.com/b0a38808/retry/runner/match"
)

// The tests of the engine under the presets' rules, which package match
// cannot import.

var testNow = time.Date(2026, 10, 21, 7, 28, 0, 0, time.UTC)

var show = match.Show

// parseRetryAfter reads a Retry-After value as classify does, at testNow.
func parseRetryAfter(v string) (time.Duration, error) { return classify.ParseRetryAfter(v, testNow) }

// presetHint returns classify's Retry-After Pattern, which takes its
// strings from the presets' table.
func presetHint() *match.Pattern {
	r := classify.Rules{Hints: true}
	return r.NewMatcher(nil).HintPattern()
}

// presetLines are messages the presets' tools print, and near misses.
var presetLines = []string{
	"fatal: Authentication failed for 'https://example.com/r.git/'",
	"FATAL: AUTHENTICATION FAILED FOR 'x'",
	"git@example.com: Permission denied (publickey).",
	"remote: Repository not found.",
	"fatal: repository 'https://example.com/x/' not found",
	"Host \u212aey verification failed.",
	"fatal: could not read Username for 'https://example.com': terminal prompts disabled",
	"fatal: could not read Pa\u017fsword for 'https://example.com'",
	"fatal: unable to access 'https://example.com/': Could not resolve host: example.com",
	"error: RPC failed; HTTP 503 curl 22 The requested URL returned error: 503",
	"fatal: the remote end hung up unexpectedly",
	"ssh: connect to host example.com port 22: Connection refused",
	"fatal: Unable to create '/r/.git/index.lock': File exists.",
	"curl: (22) The requested URL returned error: 503",
	"curl: (22) The requested URL returned error: 404",
	"HTTP/1.1 503 Service Unavailable",
	"< http/2 429",
	"HTTP/2 200",
	"upstream said 502 Bad Gateway",
	"E: Could not get lock /var/lib/dpkg/lock-frontend. It is held by process 1234 (apt-get)",
	"E: Unable to locate package nope",
	"Err:1 http://deb.debian.org/debian bookworm InRelease Temporary failure resolving 'deb.debian.org'",
	"E: Failed to fetch http://deb.debian.org/x.deb  503  Service Unavailable [IP: 1.2.3.4 80]",
	"Connection closed by 10.0.0.1 port 22",
	"kex_exchange_identification: read: Connection reset by peer",
	"npm ERR! code E404",
	"npm error code ETIMEDOUT",
	"npm ERR! network request to https://registry.npmjs.org/x failed",
	"go: example.com/m@v1.0.0: reading https://proxy.golang.org/example.com/m/@v/v1.0.0.mod: 503 Service Unavailable",
	"verifying example.com/m@v1.0.0: checksum mismatch",
	"go: downloading example.com/m v1.0.0",
	"Error response from daemon: pull access denied for nope, repository does not exist",
	"toomanyrequests: You have reached your pull rate limit.",
	"received unexpected HTTP status: 503 Service Unavailable",
	"Error from server (NotFound): pods \"x\" not found",
	"Error from server (ServiceUnavailable): the server is currently unable to handle the request",
	"The connection to the server 127.0.0.1:6443 was refused - did you specify the right host or port?",
	"2026-12-01 09:00:00 ERROR 503: Service Unavailable.",
	"Retry-After: 30",
	"W: Failed to fetch http://127.0.0.1:1/debian/dists/stable/InRelease  Could not connect to 127.0.0.1:1 (127.0.0.1). - connect (111: Connection refused)",
	"W: Some index files failed to download. They have been ignored, or old ones used instead.",
	"nothing to see here",
}

// presetConfig is every preset's output rules at once, with the hint.
func presetConfig(t testing.TB) match.Config {
	var r classify.Rules
	for _, p := range classify.Presets() {
		if err := r.AddPreset(p); err != nil {
			t.Fatal(err)
		}
	}
	return match.Config{StopIf: r.StopIf, RetryIf: r.RetryIf, FailIf: r.FailIf, Hint: match.RetryAfterHint(), ParseHint: parseRetryAfter}
}

// TestPresetLines checks that the literal search loses no match of a
// preset rule on real messages, in any case the rule allows.
func TestPresetLines(t *testing.T) {
	w := presetConfig(t)
	matched := 0
	for _, line := range presetLines {
		for _, l := range []string{line, strings.ToUpper(line), strings.ToLower(line)} {
			for _, p := range append(append(w.StopIf, w.RetryIf...), w.FailIf...) {
				one := match.Config{RetryIf: []*match.Pattern{p}, Hint: w.Hint, ParseHint: w.ParseHint}
				m := match.New(one)
				match.Feed(m, "stderr", l+"\n")
				got, want := m.Output(), match.Reference(one, []byte(l+"\n"))
				if show(got.RetryIf) != show(want.RetryIf) {
					t.Errorf("%s %q on %q: matcher %q, regexp %q", p.From, p, l, show(got.RetryIf), show(want.RetryIf))
				}
				if got.RetryIf != nil {
					matched++
				}
			}
		}
	}
	if matched < 50 {
		t.Errorf("only %d (line, rule) pairs matched: the lines no longer exercise the presets", matched)
	}
}

// FuzzMatcherPresets runs every preset at once over mutated real messages
// against the line-by-line reference.
func FuzzMatcherPresets(f *testing.F) {
	for _, l := range presetLines {
		f.Add([]byte(l + "\n" + strings.ToUpper(l) + "\n"))
	}
	w := presetConfig(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		m := match.New(w)
		match.Feed(m, "stderr", string(data))
		got, want := m.Output(), match.Reference(w, data)
		if show(got.StopIf) != show(want.StopIf) || show(got.RetryIf) != show(want.RetryIf) || show(got.FailIf) != show(want.FailIf) || got.Hint != want.Hint {
			t.Fatalf("matcher found stop %q retry %q fail %q hint %v\nreference found stop %q retry %q fail %q hint %v",
				show(got.StopIf), show(got.RetryIf), show(got.FailIf), got.Hint, show(want.StopIf), show(want.RetryIf), show(want.FailIf), want.Hint)
		}
	})
}

// TestPresetPatternsLazy: adding every preset compiles none of their
// expressions; a line holding one rule's string compiles that rule's alone.
func TestPresetPatternsLazy(t *testing.T) {
	var r classify.Rules
	for _, p := range classify.Presets() {
		if err := r.AddPreset(p); err != nil {
			t.Fatal(err)
		}
	}
	r.Hints = true
	all := slices.Concat(r.StopIf, r.RetryIf, r.FailIf)
	compiled := func() (n int) {
		for _, p := range all {
			if p.Compiled() {
				n++
			}
		}
		return n
	}
	if n := compiled(); n != 0 {
		t.Fatalf("%d expressions compiled by AddPreset, want none", n)
	}
	m := r.NewMatcher(nil)
	m.Writer("stderr").Write([]byte("building\nfatal: early EOF\n"))
	if n := compiled(); n == 0 || n > 2 {
		t.Errorf("%d expressions compiled after one line with a string of git's, want one or two", n)
	}
	if out := m.Output(); out.RetryIf == nil || !strings.Contains(out.RetryIf.Line, "early EOF") {
		t.Errorf("the line was not matched: %+v", out)
	}
	if h := m.HintPattern(); h == nil || h.Compiled() {
		t.Errorf("the Retry-After expression was compiled with no line holding its string")
	}
}

// TestDefaultHintCompiledOnFirstLine guards the start-up path: a matcher
// watching for Retry-After compiles its expression only when a line holds
// its string, so an attempt that prints nothing never compiles it.
func TestDefaultHintCompiledOnFirstLine(t *testing.T) {
	r := classify.Rules{Hints: true}
	now := func() time.Time { return testNow }
	m := r.NewMatcher(now)
	w := m.Writer("stderr")
	if h := m.HintPattern(); h == nil || h.Compiled() {
		t.Fatal("NewMatcher compiled the Retry-After expression before any output")
	}
	w.Close()
	if out := m.Output(); out.HasHint || m.HintPattern().Compiled() {
		t.Errorf("silent attempt: hint %v/%v, compiled %v; want none and not compiled", out.Hint, out.HasHint, m.HintPattern().Compiled())
	}

	m = r.NewMatcher(now)
	w = m.Writer("stderr")
	w.Write([]byte("HTTP/1.1 503\r\nRetry-After: 7\r\n"))
	w.Close()
	if out := m.Output(); !out.HasHint || out.Hint.Seconds() != 7 {
		t.Errorf("hint %v/%v; want 7s/true", out.Hint, out.HasHint)
	}
}
