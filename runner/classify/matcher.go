package classify

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"regexp"
	"regexp/syntax"
	"strings"
	"sync"
	"time"
)

// MaxLine is how much of one output line is matched: a longer line is
// matched on its first MaxLine bytes, and the rest of it is skipped.
const MaxLine = 64 << 10

// defaultHint finds a Retry-After header line, as curl -D or -i prints it,
// or curl -v with its "< " marker; the capture is the field value.
const defaultHint = `(?i)^[\t ]*(?:<[\t ]*)?retry-after[\t ]*:[\t ]*(.*?)[\t ]*$`

// Pattern is a compiled --stop-if, --retry-if or --hint-pattern expression.
type Pattern struct {
	// From is where the rule was given: empty for the command line, or
	// "preset NAME".
	From string
	expr string
	re   *regexp.Regexp
	pre  *prefilter
}

// CompilePattern compiles a Go RE2 expression matched against single lines.
// The error suits a "retry: --retry-if: " prefix.
func CompilePattern(expr string) (*Pattern, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		var serr *syntax.Error
		if errors.As(err, &serr) {
			return nil, fmt.Errorf("bad regular expression %q: %s", expr, serr.Code)
		}
		return nil, fmt.Errorf("bad regular expression %q: %v", expr, err)
	}
	return &Pattern{expr: expr, re: re, pre: newPrefilter(expr)}, nil
}

// CompileHintPattern compiles a --hint-pattern: a line expression with
// exactly one capture group, which catches the wait.
func CompileHintPattern(expr string) (*Pattern, error) {
	p, err := CompilePattern(expr)
	if err != nil {
		return nil, err
	}
	if n := p.re.NumSubexp(); n != 1 {
		return nil, fmt.Errorf("%q has %d capture groups, want exactly one around the wait, as in %q", expr, n, `retry in (\d+)s`)
	}
	return p, nil
}

// String returns the expression as the user wrote it.
func (p *Pattern) String() string { return p.expr }

// Watch says what an attempt's output is searched for.
type Watch struct {
	StopIf, RetryIf []*Pattern
	// FailIf are the --fail-if patterns, which turn an exit 0 into a
	// failure.
	FailIf []*Pattern
	// Hints turns on server hints: HintPattern, or Retry-After headers
	// when it is nil.
	Hints       bool
	HintPattern *Pattern
	// Now is the clock HTTP-date hints are measured against.
	Now func() time.Time
	// MaxLine overrides MaxLine when positive (for tests).
	MaxLine int
}

// Match tells which pattern matched first, and where.
type Match struct {
	Pattern string // the expression as given
	From    string // the pattern's From
	Stream  string // the stream's name, "stdout" or "stderr"
	Line    string // the line, shortened to 200 bytes of valid UTF-8
}

// Output is what a Matcher learnt from one attempt's output.
type Output struct {
	// StopIf and RetryIf are the first matches of each group, nil for none.
	// RetryIf is nil whenever StopIf is set: a stop decides, so --retry-if
	// patterns are not looked for any more once one matched.
	StopIf, RetryIf *Match
	// FailIf is the first match of a --fail-if pattern, nil for none.
	FailIf *Match
	// Silent: the watched streams carried not one byte.
	Silent bool
	// Hint is the last server hint seen, when HasHint.
	Hint    time.Duration
	HasHint bool
}

// Matcher searches an attempt's output streams line by line, in bounded
// memory, for the patterns of a Watch. It is safe for one writer per stream
// at a time, and streams may be written concurrently.
type Matcher struct {
	mu          sync.Mutex
	stop, retry []probe
	fail        []probe
	carried     bool // a watched stream carried a byte
	hint        *probe
	defaultHint bool // hint is the Retry-After probe, compiled by scan when needed
	now         func() time.Time
	maxLine     int
	out         Output
}

// probe is one pattern with this matcher's own prefilter state.
type probe struct {
	pat *Pattern
	pre *prefilter
}

// NewMatcher returns a Matcher for one attempt.
func NewMatcher(w Watch) *Matcher {
	m := &Matcher{now: w.Now, maxLine: w.MaxLine}
	if m.now == nil {
		m.now = time.Now
	}
	if m.maxLine <= 0 {
		m.maxLine = MaxLine
	}
	m.stop = probes(w.StopIf)
	m.retry = probes(w.RetryIf)
	m.fail = probes(w.FailIf)
	switch {
	case w.Hints && w.HintPattern != nil:
		p := newProbe(w.HintPattern)
		m.hint = &p
	case w.Hints:
		// hintProbe compiles the Retry-After expression when the first line
		// arrives: an attempt that prints nothing, as most successful ones
		// do on stderr, starts and ends without compiling it.
		m.defaultHint = true
	}
	return m
}

func probes(pats []*Pattern) []probe {
	ps := make([]probe, len(pats))
	for i, p := range pats {
		ps[i] = newProbe(p)
	}
	return ps
}

func newProbe(p *Pattern) probe {
	pr := probe{pat: p}
	if p.pre != nil {
		pr.pre = &prefilter{lits: append([]literal(nil), p.pre.lits...)}
	}
	return pr
}

// Writer returns the io.Writer that takes the bytes of the named stream.
// Its Write never fails and never keeps p; Close matches a last line that
// has no newline, and must be called once the stream has ended.
func (m *Matcher) Writer(stream string) io.WriteCloser {
	return &lineWriter{m: m, stream: stream}
}

// Output returns what the matcher found so far; call it once the streams
// are closed. A line still unterminated at that time is matched too.
func (m *Matcher) Output() Output {
	m.mu.Lock()
	defer m.mu.Unlock()
	out := m.out
	out.Silent = !m.carried
	if out.StopIf != nil {
		out.RetryIf = nil
	}
	return out
}

// settled reports whether no further output can change the Output.
func (m *Matcher) settled() bool {
	if m.hint != nil || m.defaultHint {
		return false
	}
	if len(m.fail) > 0 && m.out.FailIf == nil {
		return false
	}
	if m.out.StopIf != nil {
		return true
	}
	return len(m.stop) == 0 && (m.out.RetryIf != nil || len(m.retry) == 0)
}

// scan matches every line of r, a run of complete lines separated by '\n'
// (the last one unterminated).
func (m *Matcher) scan(stream string, r []byte) {
	if m.out.StopIf == nil && len(m.stop) > 0 {
		m.out.StopIf = m.first(m.stop, stream, r)
	}
	if m.out.StopIf == nil && m.out.RetryIf == nil && len(m.retry) > 0 {
		m.out.RetryIf = m.first(m.retry, stream, r)
	}
	if m.out.FailIf == nil && len(m.fail) > 0 {
		m.out.FailIf = m.first(m.fail, stream, r)
	}
	if m.hintProbe() != nil {
		m.hints(stream, r)
	}
}

// hintProbe returns the probe that finds hints, nil when hints are off. The
// Retry-After expression is compiled on the first call.
func (m *Matcher) hintProbe() *probe {
	if m.hint == nil && m.defaultHint {
		pat, err := CompilePattern(defaultHint)
		if err != nil {
			panic(err) // a constant expression: a bug
		}
		p := newProbe(pat)
		m.hint = &p
	}
	return m.hint
}

// first returns the earliest line of r that one of ps matches; on one line
// the first pattern in ps wins.
func (m *Matcher) first(ps []probe, stream string, r []byte) *Match {
	var found *Match
	limit := len(r)
	for i := range ps {
		p := &ps[i]
		start, line := -1, []byte(nil)
		m.lines(p, r[:limit], func(s int, l []byte) bool {
			if !p.pat.re.Match(l) {
				return true
			}
			start, line = s, l
			return false
		})
		if start < 0 {
			continue
		}
		found = &Match{Pattern: p.pat.expr, From: p.pat.From, Stream: stream, Line: shorten(line)}
		if start == 0 {
			break
		}
		limit = start - 1 // only a line that ends before this one can win
	}
	return found
}

// hints records the last valid hint in r.
func (m *Matcher) hints(stream string, r []byte) {
	p := m.hint
	m.lines(p, r, func(_ int, l []byte) bool {
		sub := p.pat.re.FindSubmatch(l)
		if sub == nil {
			return true
		}
		parse := ParseHintValue
		if m.defaultHint {
			parse = ParseRetryAfter
		}
		if d, err := parse(string(sub[1]), m.now()); err == nil {
			m.out.Hint, m.out.HasHint = d, true
		}
		return true
	})
}

// lines calls f with the start and the clipped text of every line of r that
// p's prefilter admits, in order, until f returns false.
func (m *Matcher) lines(p *probe, r []byte, f func(start int, line []byte) bool) {
	if p.pre == nil {
		for s := 0; s <= len(r); {
			e := bytes.IndexByte(r[s:], '\n')
			if e < 0 {
				e = len(r)
			} else {
				e += s
			}
			if !f(s, m.clip(r[s:e])) {
				return
			}
			s = e + 1
		}
		return
	}
	p.pre.reset(r)
	for from := 0; from <= len(r); {
		c := p.pre.next(r, from)
		if c < 0 {
			return
		}
		s := from + bytes.LastIndexByte(r[from:c], '\n') + 1
		e := bytes.IndexByte(r[c:], '\n')
		if e < 0 {
			e = len(r)
		} else {
			e += c
		}
		if !f(s, m.clip(r[s:e])) {
			return
		}
		from = e + 1
	}
}

// clip drops a trailing CR and keeps the first maxLine bytes of a line.
func (m *Matcher) clip(line []byte) []byte {
	if n := len(line); n > 0 && line[n-1] == '\r' {
		line = line[:n-1]
	}
	if len(line) > m.maxLine {
		line = line[:m.maxLine]
	}
	return line
}

// shorten makes a matched line fit for a reason or a report.
func shorten(line []byte) string {
	const max = 200
	if len(line) > max {
		line = line[:max]
	}
	return strings.ToValidUTF8(string(line), "\uFFFD")
}

// lineWriter splits one stream into lines. It keeps at most maxLine+1 bytes
// of a line that spans writes; complete lines are matched in place.
type lineWriter struct {
	m        *Matcher
	stream   string
	carry    []byte
	partial  bool // a line has started and not ended
	overflow bool // carry holds only the start of that line
}

// Write matches the complete lines in p and keeps the start of an
// unterminated one. It always consumes all of p.
func (w *lineWriter) Write(p []byte) (int, error) {
	m := w.m
	m.mu.Lock()
	defer m.mu.Unlock()
	m.carried = m.carried || len(p) > 0
	if m.settled() {
		return len(p), nil
	}
	b := p
	i := bytes.IndexByte(b, '\n')
	if i < 0 {
		w.hold(b)
		return len(p), nil
	}
	if w.partial {
		w.hold(b[:i])
		w.flush()
		b = b[i+1:]
	}
	if j := bytes.LastIndexByte(b, '\n'); j >= 0 {
		m.scan(w.stream, b[:j])
		b = b[j+1:]
	}
	w.hold(b)
	return len(p), nil
}

// Close matches an unterminated last line.
func (w *lineWriter) Close() error {
	w.m.mu.Lock()
	defer w.m.mu.Unlock()
	if w.partial && !w.m.settled() {
		w.flush()
	}
	return nil
}

// hold keeps b, the continuation of the current line, within bounds.
func (w *lineWriter) hold(b []byte) {
	if len(b) == 0 || w.overflow {
		return
	}
	w.partial = true
	if room := w.m.maxLine + 1 - len(w.carry); len(b) > room {
		b, w.overflow = b[:room], true
	}
	w.carry = append(w.carry, b...)
}

// flush matches the held line (clip keeps its first maxLine bytes) and
// starts a new one.
func (w *lineWriter) flush() {
	w.m.scan(w.stream, w.carry)
	w.carry, w.partial, w.overflow = w.carry[:0], false, false
}
