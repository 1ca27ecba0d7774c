package classify

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/match"
)

// now is the clock of the hint tests: 21 Oct 2026 07:28:00 UTC.
var testNow = time.Date(2026, 10, 21, 7, 28, 0, 0, time.UTC)

func TestParseRetryAfter(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{in: "0", want: 0},
		{in: "30", want: 30 * time.Second},
		{in: " 120\r", want: 2 * time.Minute},
		{in: "007", want: 7 * time.Second},
		{in: "99999999999999999999999", want: time.Duration(math.MaxInt64)},
		{in: "9223372037", want: time.Duration(math.MaxInt64)},
		{in: "9223372036", want: 9223372036 * time.Second},
		// RFC 9110 section 5.6.7: the three forms of one instant.
		{in: "Wed, 21 Oct 2026 07:28:30 GMT", want: 30 * time.Second},
		{in: "Wednesday, 21-Oct-26 07:28:30 GMT", want: 30 * time.Second},
		{in: "Wed Oct 21 07:28:30 2026", want: 30 * time.Second},
		{in: "Wed Oct 21 08:28:00 2026\r", want: time.Hour},
		{in: "Sun Nov  1 07:28:00 2026", want: 11 * 24 * time.Hour},
		// A date in the past is no wait at all.
		{in: "Sun, 06 Nov 1994 08:49:37 GMT", want: 0},
		{in: "Sunday, 06-Nov-94 08:49:37 GMT", want: 0},
		{in: "Sun Nov  6 08:49:37 1994", want: 0},
		// RFC 850's two-digit year: more than 50 years ahead is the past.
		{in: "Monday, 21-Oct-76 07:28:00 GMT", want: time.Duration(math.MaxInt64)}, // 2076: kept in the future
		{in: "Thursday, 21-Oct-77 07:28:00 GMT", want: 0},                          // 1977
		{in: "-1", bad: true},
		{in: "1.5", bad: true},
		{in: "", bad: true},
		{in: "soon", bad: true},
		{in: "1m", bad: true},
		{in: "Wed, 21 Oct 2026 07:28:30 PST", bad: true},
		{in: "Wed, 21 Oct 2026 25:28:30 GMT", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseRetryAfter(tt.in, testNow)
			if tt.bad {
				if err == nil {
					t.Fatalf("ParseRetryAfter(%q) = %v, want an error", tt.in, got)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseRetryAfter(%q): %v", tt.in, err)
			}
			if tt.want == time.Duration(math.MaxInt64) && tt.in[0] > '9' {
				// A date decades ahead: only its direction matters here.
				if got < 49*365*24*time.Hour {
					t.Fatalf("ParseRetryAfter(%q) = %v, want decades", tt.in, got)
				}
				return
			}
			if got != tt.want {
				t.Errorf("ParseRetryAfter(%q) = %v, want %v", tt.in, got, tt.want)
			}
		})
	}
}

func TestParseHintValue(t *testing.T) {
	tests := []struct {
		in   string
		want time.Duration
		bad  bool
	}{
		{in: "30", want: 30 * time.Second},
		{in: "1.5", want: 1500 * time.Millisecond},
		{in: "0.25 ", want: 250 * time.Millisecond},
		{in: "1m30s", want: 90 * time.Second},
		{in: "250ms", want: 250 * time.Millisecond},
		{in: "Wed, 21 Oct 2026 07:29:00 GMT", want: time.Minute},
		{in: "1e3", bad: true},
		{in: "0x10", bad: true},
		{in: "Inf", bad: true},
		{in: "NaN", bad: true},
		{in: "-5s", bad: true},
		{in: "-5", bad: true},
		{in: ".", bad: true},
		{in: "1..2", bad: true},
		{in: "", bad: true},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			got, err := ParseHintValue(tt.in, testNow)
			if tt.bad {
				if err == nil {
					t.Fatalf("ParseHintValue(%q) = %v, want an error", tt.in, got)
				}
				return
			}
			if err != nil || got != tt.want {
				t.Errorf("ParseHintValue(%q) = %v, %v; want %v", tt.in, got, err, tt.want)
			}
		})
	}
}

// FuzzParseRetryAfter checks that any header value parses without a panic to
// a non-negative wait, and that delay-seconds and IMF-fixdate round-trip.
func FuzzParseRetryAfter(f *testing.F) {
	for _, s := range []string{"0", "30", "120\r", "99999999999999999999", "Wed, 21 Oct 2026 07:28:30 GMT",
		"Wednesday, 21-Oct-26 07:28:30 GMT", "Wed Oct 21 07:28:30 2026", "Sun Nov  6 08:49:37 1994", "-1", "1.5", ""} {
		f.Add(s, int64(0))
	}
	f.Fuzz(func(t *testing.T, s string, offset int64) {
		now := testNow.Add(time.Duration(offset))
		d, err := ParseRetryAfter(s, now)
		if err == nil && d < 0 {
			t.Fatalf("ParseRetryAfter(%q) = %v, want >= 0", s, d)
		}
		if err == nil && strings.TrimSpace(s) == "" {
			t.Fatalf("ParseRetryAfter(%q) accepted blank", s)
		}
		h, err := ParseHintValue(s, now)
		if err == nil && h < 0 {
			t.Fatalf("ParseHintValue(%q) = %v, want >= 0", s, h)
		}
		// A date the parser accepted prints back to the same instant.
		if t0, ok := parseHTTPDate(strings.TrimSpace(s), now); ok {
			back, ok := parseHTTPDate(t0.Format(imfFixdate), now)
			if !ok || !back.Equal(t0.Truncate(time.Second)) {
				t.Fatalf("date %q -> %v does not round-trip (%v)", s, t0, back)
			}
		}
	})
}

// TestMatcherHints: the Matchers of Rules find Retry-After lines, or the
// --hint-pattern's capture, and read the wait as ParseRetryAfter and
// ParseHintValue do.
func TestMatcherHints(t *testing.T) {
	tests := []struct {
		name    string
		pattern string
		noHints bool
		chunks  []string
		want    time.Duration
		none    bool
	}{
		{name: "delay-seconds", chunks: []string{"HTTP/1.1 503\r\nRetry-After: 30\r\n\r\n"}, want: 30 * time.Second},
		{name: "lower case, HTTP/2", chunks: []string{"retry-after: 5\r\n"}, want: 5 * time.Second},
		{name: "curl -v marker", chunks: []string{"< Retry-After: 7\n"}, want: 7 * time.Second},
		{name: "IMF-fixdate", chunks: []string{"Retry-After: Wed, 21 Oct 2026 07:29:00 GMT\n"}, want: time.Minute},
		{name: "RFC 850", chunks: []string{"Retry-After: Wednesday, 21-Oct-26 07:29:00 GMT\n"}, want: time.Minute},
		{name: "asctime", chunks: []string{"Retry-After: Wed Oct 21 07:29:00 2026\n"}, want: time.Minute},
		{name: "last hint wins", chunks: []string{"Retry-After: 30\n", "x\nRETRY-AFTER: 2\n"}, want: 2 * time.Second},
		{name: "invalid hint ignored", chunks: []string{"Retry-After: 3\nRetry-After: soon\n"}, want: 3 * time.Second},
		{name: "split across writes", chunks: []string{"Retry-Af", "ter: 1", "2\r", "\n"}, want: 12 * time.Second},
		{name: "unterminated", chunks: []string{"Retry-After: 9"}, want: 9 * time.Second},
		{name: "not a header", chunks: []string{"we will Retry-After: 30 later\n"}, none: true},
		{name: "hints off", noHints: true, chunks: []string{"Retry-After: 30\n"}, none: true},
		{name: "pattern seconds", pattern: `retry in (\S+)`, chunks: []string{"Retry-After: 30\nplease retry in 2.5\n"}, want: 2500 * time.Millisecond},
		{name: "pattern duration", pattern: `wait (\S+)`, chunks: []string{"wait 1m30s\n"}, want: 90 * time.Second},
		{name: "pattern date", pattern: `until (.*)`, chunks: []string{"until Wed, 21 Oct 2026 07:28:10 GMT\n"}, want: 10 * time.Second},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := Rules{Hints: !tt.noHints, RetryIf: mustPatterns(t, "never")}
			if tt.pattern != "" {
				p, err := CompileHintPattern(tt.pattern)
				if err != nil {
					t.Fatal(err)
				}
				r.HintPattern = p
			}
			m := r.NewMatcher(func() time.Time { return testNow })
			w := m.Writer("stderr")
			for _, c := range tt.chunks {
				w.Write([]byte(c))
			}
			w.Close()
			out := m.Output()
			if tt.none {
				if out.HasHint {
					t.Fatalf("hint %v, want none", out.Hint)
				}
				return
			}
			if !out.HasHint || out.Hint != tt.want {
				t.Errorf("hint = %v (%v), want %v", out.Hint, out.HasHint, tt.want)
			}
		})
	}
}

func TestCompileHintPattern(t *testing.T) {
	for _, tt := range []struct{ expr, want string }{
		{"(a", `bad regular expression "(a": missing closing )`},
		{"wait", `"wait" has 0 capture groups, want exactly one`},
		{"(a)(b)", "has 2 capture groups"},
	} {
		if _, err := CompileHintPattern(tt.expr); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("compile %q: error %v, want %q", tt.expr, err, tt.want)
		}
	}
}

// mustPatterns compiles each expression, for the tests' rules.
func mustPatterns(t testing.TB, exprs ...string) []*match.Pattern {
	t.Helper()
	ps := make([]*match.Pattern, len(exprs))
	for i, e := range exprs {
		p, err := match.Compile(e)
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
	return ps
}
