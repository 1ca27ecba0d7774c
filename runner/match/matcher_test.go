package match

import (
	"bytes"
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"
	"time"
)

func mustPatterns(t testing.TB, exprs ...string) []*Pattern {
	t.Helper()
	ps := make([]*Pattern, len(exprs))
	for i, e := range exprs {
		p, err := Compile(e)
		if err != nil {
			t.Fatal(err)
		}
		ps[i] = p
	}
	return ps
}

// retryAfter returns the Pattern of classify's Retry-After hint, whose
// capture is the header's value.
func retryAfter() *Pattern {
	return Known(`(?i)^[\t ]*(?:<[\t ]*)?retry-after[\t ]*:[\t ]*(.*?)[\t ]*$`)
}

// parseSeconds reads a hint of whole seconds, as the tests' ParseHint.
func parseSeconds(v string) (time.Duration, error) {
	n, err := strconv.Atoi(strings.TrimSpace(v))
	if err != nil || n < 0 {
		return 0, errors.New("not seconds")
	}
	return time.Duration(n) * time.Second, nil
}

// feed writes each chunk to the stream, then closes it.
func feed(m *Matcher, stream string, chunks ...string) {
	w := m.Writer(stream)
	for _, c := range chunks {
		if n, err := w.Write([]byte(c)); n != len(c) || err != nil {
			panic(fmt.Sprintf("Write = %d, %v", n, err))
		}
	}
	w.Close()
}

func TestMatcherRules(t *testing.T) {
	tests := []struct {
		name            string
		stop, retry     []string
		chunks          []string
		wantStop, wantR string // "pattern|line", "" for no match
	}{
		{name: "no rules", chunks: []string{"denied\n"}},
		{name: "retry-if", retry: []string{"timed out"}, chunks: []string{"a\nconnection timed out\nb\n"},
			wantR: "timed out|connection timed out"},
		{name: "stop-if beats retry-if on a later line", stop: []string{"denied"}, retry: []string{"timed out"},
			chunks: []string{"timed out\n", "permission denied\n"}, wantStop: "denied|permission denied"},
		{name: "earliest line wins across patterns", stop: []string{"b", "a"}, chunks: []string{"xa\nxb\n"},
			wantStop: "a|xa"},
		{name: "one line: first pattern wins", retry: []string{"x", "y"}, chunks: []string{"yx\n"}, wantR: "x|yx"},
		{name: "line split across writes", retry: []string{"timed out"}, chunks: []string{"conn", "ection tim", "ed out", "\n"},
			wantR: "timed out|connection timed out"},
		{name: "no match across lines", retry: []string{"timed out"}, chunks: []string{"timed\nout\n"}},
		{name: "anchors are per line", retry: []string{"^error: (.*)$"}, chunks: []string{"x\nerror: boom\ny\n"},
			wantR: "^error: (.*)$|error: boom"},
		{name: "trailing CR ignored", stop: []string{`denied$`}, chunks: []string{"access denied\r\n"},
			wantStop: "denied$|access denied"},
		{name: "unterminated last line", retry: []string{"503"}, chunks: []string{"ok\nerror 503"},
			wantR: "503|error 503"},
		{name: "case folding", retry: []string{"(?i)service unavailable"}, chunks: []string{"HTTP 503 SERVICE UNAVAILABLE\n"},
			wantR: "(?i)service unavailable|HTTP 503 SERVICE UNAVAILABLE"},
		{name: "fold with kelvin sign", retry: []string{"(?i)ok"}, chunks: []string{"o\u212a\n"}, wantR: "(?i)ok|o\u212a"},
		{name: "binary output", retry: []string{"fail"}, chunks: []string{"\x00\xff\xfe\nx\x00fail\x01\n"},
			wantR: "fail|x\x00fail\x01"},
		{name: "empty line pattern", retry: []string{"^$"}, chunks: []string{"a\n\nb\n"}, wantR: "^$|"},
		{name: "no prefilter pattern", retry: []string{`\d{3}`}, chunks: []string{"a\nb 42\nc 503\n"}, wantR: `\d{3}|c 503`},
		{name: "alternation", stop: []string{"(?:denied|forbidden|not found)"}, chunks: []string{"x\n404 not found\n"},
			wantStop: "(?:denied|forbidden|not found)|404 not found"},
		{name: "stream order", retry: []string{"a"}, chunks: []string{"1a\n", "2a\n"}, wantR: "a|1a"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			m := New(Config{StopIf: mustPatterns(t, tt.stop...), RetryIf: mustPatterns(t, tt.retry...)})
			feed(m, "stderr", tt.chunks...)
			out := m.Output()
			if got := show(out.StopIf); got != tt.wantStop {
				t.Errorf("StopIf = %q, want %q", got, tt.wantStop)
			}
			if got := show(out.RetryIf); got != tt.wantR {
				t.Errorf("RetryIf = %q, want %q", got, tt.wantR)
			}
			if out.HasHint {
				t.Errorf("HasHint without hints: %v", out.Hint)
			}
		})
	}
}

func show(m *Match) string {
	if m == nil {
		return ""
	}
	if m.Stream != "stderr" {
		return "stream " + m.Stream
	}
	return m.Pattern + "|" + m.Line
}

func TestMatcherLongLine(t *testing.T) {
	long := strings.Repeat("x", MaxLine-len("needle")) + "needle" + "tail-only"
	for _, tt := range []struct {
		name, expr string
		want       bool
	}{
		{"match inside the first 64 KiB", "needle", true},
		{"match past 64 KiB is not seen", "tail-only", false},
		{"next line is matched again", "after", true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			for _, chunk := range []int{1 << 20, 4096, 7} {
				m := New(Config{RetryIf: mustPatterns(t, tt.expr)})
				data := long + "\nafter\n"
				var chunks []string
				for i := 0; i < len(data); i += chunk {
					chunks = append(chunks, data[i:min(i+chunk, len(data))])
				}
				feed(m, "stderr", chunks...)
				if got := m.Output().RetryIf != nil; got != tt.want {
					t.Errorf("chunks of %d: matched = %v, want %v", chunk, got, tt.want)
				}
			}
		})
	}
}

func TestCompileErrors(t *testing.T) {
	for _, tt := range []struct {
		expr, want string
	}{
		{expr: "(a", want: `bad regular expression "(a": missing closing )`},
		{expr: "a**", want: `bad regular expression "a**": invalid nested repetition operator`},
		{expr: `\8`, want: `bad regular expression "\\8": invalid escape sequence`},
	} {
		if _, err := Compile(tt.expr); err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("compile %q: error %v, want %q", tt.expr, err, tt.want)
		}
	}
}

func TestMatcherBothStreams(t *testing.T) {
	m := New(Config{RetryIf: mustPatterns(t, "busy")})
	out, errw := m.Writer("stdout"), m.Writer("stderr")
	errw.Write([]byte("still bu"))
	out.Write([]byte("busy\n"))
	errw.Write([]byte("sy\n"))
	out.Close()
	errw.Close()
	if got := m.Output().RetryIf; got == nil || got.Stream != "stdout" || got.Line != "busy" {
		t.Fatalf("RetryIf = %+v, want stdout's line: streams keep their own partial lines", got)
	}
}

// TestMatcherBoundedMemory writes a 50 MB line without a newline, then
// binary noise, and checks that the matcher allocates nothing per write and
// keeps at most one line's worth.
func TestMatcherBoundedMemory(t *testing.T) {
	m := New(Config{RetryIf: mustPatterns(t, "(?i)timeout", `\d+ ms`), Hint: retryAfter(), ParseHint: parseSeconds})
	w := m.Writer("stderr")
	chunk := bytes.Repeat([]byte("abcdefgh"), 4096)
	w.Write(chunk) // the line buffer grows once
	allocs := testing.AllocsPerRun(50<<20/len(chunk), func() { w.Write(chunk) })
	if allocs != 0 {
		t.Errorf("%.1f allocations per write of a long line, want 0", allocs)
	}
	lw := w.(*lineWriter)
	if cap(lw.carry) > 2*(MaxLine+1) {
		t.Errorf("line buffer grew to %d bytes", cap(lw.carry))
	}
	noise := make([]byte, 32<<10)
	for i := range noise {
		noise[i] = byte(i*7919 + i>>8)
	}
	allocs = testing.AllocsPerRun(100, func() { w.Write(noise) })
	if allocs != 0 {
		t.Errorf("%.1f allocations per write of binary output, want 0", allocs)
	}
	if cap(lw.carry) > 2*(MaxLine+1) {
		t.Errorf("line buffer grew to %d bytes", cap(lw.carry))
	}
}

// reference is the obvious matcher the fast one must agree with: split the
// whole output into lines, clip each, try every pattern.
func reference(w Config, data []byte) Output {
	var out Output
	lines := bytes.Split(data, []byte("\n"))
	if len(lines[len(lines)-1]) == 0 {
		lines = lines[:len(lines)-1]
	}
	m := New(w) // for clip only
	for _, raw := range lines {
		l := m.clip(raw)
		if out.StopIf == nil {
			for _, p := range w.StopIf {
				if p.regexp().Match(l) {
					out.StopIf = &Match{Pattern: p.expr, Stream: "stderr", Line: shorten(l)}
					break
				}
			}
		}
		if out.StopIf == nil && out.RetryIf == nil {
			for _, p := range w.RetryIf {
				if p.regexp().Match(l) {
					out.RetryIf = &Match{Pattern: p.expr, Stream: "stderr", Line: shorten(l)}
					break
				}
			}
		}
		if out.FailIf == nil {
			for _, p := range w.FailIf {
				if p.regexp().Match(l) {
					out.FailIf = &Match{Pattern: p.expr, Stream: "stderr", Line: shorten(l)}
					break
				}
			}
		}
		if w.Hint != nil {
			if sub := w.Hint.regexp().FindSubmatch(l); sub != nil {
				if d, err := w.ParseHint(string(sub[1])); err == nil {
					out.Hint, out.HasHint = d, true
				}
			}
		}
	}
	if out.StopIf != nil {
		out.RetryIf = nil
	}
	return out
}

// FuzzMatcher feeds random output in random pieces to a matcher with a
// small line limit and checks it against the reference.
func FuzzMatcher(f *testing.F) {
	f.Add([]byte("connection timed out\nRetry-After: 3\r\npermission denied\n"), []byte{3, 9})
	f.Add([]byte("xxxxxxxxxxxxxxxxxxxxdenied\nFATAL\n"), []byte{1})
	f.Add([]byte("Time Out\r\n\n\nE42 \npanic: x"), []byte{0, 0, 5})
	f.Add([]byte("o\u212aay\nretry-after:1\n< retry-after: Wed Oct 21 07:29:00 2026\n"), []byte{2, 200})
	stop := []string{"denied", "(?i)fatal|panic"}
	retry := []string{"(?i)time ?out", "^$", `\bE\d+\b`, "(?i)okay", "é"}
	w := Config{StopIf: mustPatterns(f, stop...), RetryIf: mustPatterns(f, retry...), Hint: retryAfter(),
		ParseHint: parseSeconds, MaxLine: 16}
	f.Fuzz(func(t *testing.T, data, cuts []byte) {
		m := New(w)
		wr := m.Writer("stderr")
		rest := data
		for i := 0; len(rest) > 0; i++ {
			n := len(rest)
			if len(cuts) > 0 {
				n = min(n, int(cuts[i%len(cuts)])+1)
			}
			wr.Write(rest[:n])
			rest = rest[n:]
		}
		wr.Close()
		got, want := m.Output(), reference(w, data)
		if show(got.StopIf) != show(want.StopIf) || show(got.RetryIf) != show(want.RetryIf) ||
			got.HasHint != want.HasHint || got.Hint != want.Hint {
			t.Fatalf("matcher found stop %q retry %q hint %v/%v\nreference found stop %q retry %q hint %v/%v",
				show(got.StopIf), show(got.RetryIf), got.Hint, got.HasHint,
				show(want.StopIf), show(want.RetryIf), want.Hint, want.HasHint)
		}
	})
}

// benchOutput is log-like text: short and long lines, with no match.
func benchOutput(size int) []byte {
	var b bytes.Buffer
	for i := 0; b.Len() < size; i++ {
		fmt.Fprintf(&b, "2026-11-30T07:00:%02d.%03dZ INFO request id=%d path=/api/v1/items/%d status=200 bytes=%d took=%dms\n",
			i%60, i%1000, i, i*7, i*13%9000, i%97)
		if i%50 == 0 {
			b.WriteString("    at com.example.service.Handler.process(Handler.java:123) caused by upstream latency\n")
		}
	}
	return b.Bytes()[:size]
}

// BenchmarkMatcher measures the matcher alone under three --retry-if rules
// and the Retry-After hint, 32 KiB writes as a pipe delivers them.
func BenchmarkMatcher(b *testing.B) {
	for _, bc := range []struct {
		name  string
		rules []string
	}{
		{"literals", []string{"connection refused", "(?i)timed out", "HTTP/[0-9.]+ 50[234]"}},
		{"no-prefilter", []string{`^\d+ errors?$`, "connection refused", "(?i)timed out"}},
	} {
		b.Run(bc.name, func(b *testing.B) {
			data := benchOutput(8 << 20)
			m := New(Config{RetryIf: mustPatterns(b, bc.rules...), Hint: retryAfter(), ParseHint: parseSeconds})
			w := m.Writer("stderr")
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				for i := 0; i < len(data); i += 32 << 10 {
					w.Write(data[i:min(i+32<<10, len(data))])
				}
			}
			if m.Output().RetryIf != nil {
				b.Fatal("benchmark output matched")
			}
		})
	}
}

// TestMatcherFailIf: --fail-if patterns are looked for on every line
// whatever the stop and retry patterns found, and the first match wins.
func TestMatcherFailIf(t *testing.T) {
	m := New(Config{StopIf: mustPatterns(t, "denied"), FailIf: mustPatterns(t, "^W: ", "(?i)warning")})
	feed(m, "stderr", "ok\naccess denied\n", "a Warning here\nW: late\n")
	out := m.Output()
	if show(out.StopIf) != "denied|access denied" || show(out.FailIf) != "(?i)warning|a Warning here" {
		t.Errorf("stop %q fail %q, want the stop on line 2 and the fail on line 3", show(out.StopIf), show(out.FailIf))
	}
}
