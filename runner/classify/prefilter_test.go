package classify

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/classify/literal"
)

// TestPresetsReduceToLiterals walks every preset, whatever presets there
// are: a rule that reduced to no literal would be matched against every
// line with its regular expression, the slow path that presets must not take.
func TestPresetsReduceToLiterals(t *testing.T) {
	n := 0
	for _, p := range Presets() {
		for _, r := range p.Rules {
			if r.Kind == RetryOn || r.Kind == StopOn {
				continue // exit codes; every other kind is an expression
			}
			n++
			if ls := literals(r.Value); ls == nil {
				t.Errorf("preset %s: %s %q reduces to no literal: every line would go to the regular expression", p.Name, r.Kind, r.Value)
			}
		}
	}
	if n == 0 {
		t.Fatal("no preset rule is an expression")
	}
	if literals(defaultHint) == nil {
		t.Errorf("the Retry-After hint reduces to no literal")
	}
}

func TestLiterals(t *testing.T) {
	lits := func(fold bool, ss ...string) []literal.String {
		var ls []literal.String
		for _, s := range ss {
			ls = append(ls, literal.String{Text: s, Fold: fold})
		}
		return ls
	}
	for _, tt := range []struct {
		expr string
		want []literal.String // nil: no literal, every line is matched
	}{
		{"connection refused", lits(false, "connection refused")},
		{"(?i)Timed Out", lits(true, "timed out")},
		{"(?i)timed? ?out", lits(true, "timed out", "timedout", "time out", "timeout")},
		{"a|b|c|d|e|f", nil}, // single letters: most lines hold one
		{"ERROR (408|429|503)", lits(false, "ERROR 408", "ERROR 429", "ERROR 503")},
		{"(?:alpha|beta|gamma|delta|epsilon|zeta|eta|theta)", lits(false, "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta")},
		{"^error: (.*)$", lits(false, "error: ")},
		{"(?i)ok", lits(true, "o")},        // k may be the Kelvin sign
		{"(?i)host key", lits(true, "ho")}, // the first of the longest parts
		{"é", lits(false, "é")},
		{"x\\d+y", lits(false, "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9")},
		{"Connection (closed by|reset by) .* port", lits(false, "Connection closed by ", "Connection reset by ")},
		{"line\nbreak|other", lits(false, "other")},
		{".*", nil},
		{`\d+`, nil},
		{"^$", nil},
		{"(a", nil},
	} {
		if got := literals(tt.expr); !slices.Equal(got, tt.want) {
			t.Errorf("literals(%q) = %+v, want %+v", tt.expr, got, tt.want)
		}
	}
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

// presetWatch is every preset's output rules at once, with the hint.
func presetWatch(t testing.TB) Watch {
	var r Rules
	for _, p := range Presets() {
		if err := r.AddPreset(p); err != nil {
			t.Fatal(err)
		}
	}
	return Watch{StopIf: r.StopIf, RetryIf: r.RetryIf, FailIf: r.FailIf, Hints: true, Now: func() time.Time { return testNow }}
}

// TestPresetLines checks that the literal search loses no match of a
// preset rule on real messages, in any case the rule allows.
func TestPresetLines(t *testing.T) {
	w := presetWatch(t)
	matched := 0
	for _, line := range presetLines {
		for _, l := range []string{line, strings.ToUpper(line), strings.ToLower(line)} {
			for _, p := range append(append(w.StopIf, w.RetryIf...), w.FailIf...) {
				one := Watch{RetryIf: []*Pattern{p}, Hints: true, Now: w.Now}
				m := NewMatcher(one)
				feed(m, "stderr", l+"\n")
				got, want := m.Output(), reference(one, []byte(l+"\n"))
				if show(got.RetryIf) != show(want.RetryIf) {
					t.Errorf("%s %q on %q: matcher %q, regexp %q", p.From, p.expr, l, show(got.RetryIf), show(want.RetryIf))
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
	w := presetWatch(f)
	f.Fuzz(func(t *testing.T, data []byte) {
		m := NewMatcher(w)
		feed(m, "stderr", string(data))
		got, want := m.Output(), reference(w, data)
		if show(got.StopIf) != show(want.StopIf) || show(got.RetryIf) != show(want.RetryIf) || show(got.FailIf) != show(want.FailIf) || got.Hint != want.Hint {
			t.Fatalf("matcher found stop %q retry %q fail %q hint %v\nreference found stop %q retry %q fail %q hint %v",
				show(got.StopIf), show(got.RetryIf), show(got.FailIf), got.Hint, show(want.StopIf), show(want.RetryIf), show(want.FailIf), want.Hint)
		}
	})
}

// TestPresetLitsCurrent: the table reduced at build time holds every
// preset expression, each with what reducing it now gives, and nothing else.
func TestPresetLitsCurrent(t *testing.T) {
	const fix = "presets_lits.go is out of date: run go generate ./..."
	exprs := tableExprs()
	if len(presetLits) != len(exprs) {
		t.Errorf("%s (it holds %d expressions, the presets %d)", fix, len(presetLits), len(exprs))
	}
	ids := map[literal.String]uint16{} // each string's id, in order of first appearance
	var strs []literal.String          // by id
	for i, e := range exprs {
		if i >= len(presetLits) || presetLits[i].expr != e {
			t.Fatalf("%s: %q is not at %d", fix, e, i)
		}
		var want []uint16
		for _, l := range reduce(e) {
			if _, ok := ids[l]; !ok {
				ids[l] = uint16(len(strs))
				strs = append(strs, l)
			}
			want = append(want, ids[l])
		}
		if got := presetLits[i].ids; !slices.Equal(got, want) {
			t.Errorf("%s: %q has ids %v, want %v", fix, e, got, want)
		}
		got := slices.Clone(presetLits[i].lits)
		for j := range got {
			got[j].At = 0
		}
		if want := reduce(e); !slices.Equal(got, want) {
			t.Errorf("%s: %q holds %+v, reduces to %+v", fix, e, got, want)
		}
		if got := literals(e); len(got) > 0 && &got[0] != &presetLits[i].lits[0] {
			t.Errorf("literals(%q) did not come from the table", e)
		}
	}
	if tableStrings != len(strs) {
		t.Errorf("%s: tableStrings is %d, the table holds %d strings", fix, tableStrings, len(strs))
	}
	at := literal.FirstAnchors(strs)
	for _, e := range presetLits {
		for j, l := range e.lits {
			if j < len(e.ids) && int(e.ids[j]) < len(at) && l.At != at[e.ids[j]] {
				t.Errorf("%s: %q searches first by byte %d, FirstAnchors chooses %d", fix, l.Text, l.At, at[e.ids[j]])
			}
		}
	}
}

// TestLiteralsOutsideTable: an expression of the user's, which no preset
// has, is reduced when it is asked for.
func TestLiteralsOutsideTable(t *testing.T) {
	const expr = "(?i)quota exceeded for project [a-z]+"
	if slices.ContainsFunc(presetLits, func(e exprLits) bool { return e.expr == expr }) {
		t.Fatalf("%q is a preset's: pick another", expr)
	}
	want := []literal.String{{Text: "quota exceeded for project ", Fold: true}}
	if got := literals(expr); !slices.Equal(got, want) {
		t.Errorf("literals(%q) = %+v, want %+v", expr, got, want)
	}
}
