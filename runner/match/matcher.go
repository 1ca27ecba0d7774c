// Package match searches an attempt's output, line by line and in bounded
// memory, for regular expressions: compile the patterns (Compile), make a
// Matcher for an attempt (New), write each stream's bytes to it (Writer),
// and read what matched (Output). Expressions known when a program is
// built can be reduced to their literal strings then (NewTable), and their
// Patterns made from the Table (Table.Known). What a match means is the
// caller's. It is API: other Go programs may import it.
package match

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

// Pattern is a compiled --stop-if, --retry-if or --hint-pattern expression.
type Pattern struct {
	// From is where the rule was given: empty for the command line, or
	// "preset NAME".
	From string
	expr string
	// re is compiled by Compile, or for an expression known to be
	// valid (a preset's, the hint's) when a line first holds its strings.
	reOnce sync.Once
	re     *regexp.Regexp
	once   sync.Once
	table  *Table    // where lits come from when it holds expr; may be nil
	lits   []Literal // one is in every match; nil for none
	ids    []uint16  // their ids in table; nil when it does not hold expr
}

// literals returns the strings one of which every match holds: the
// table's, or reduced from the expression when a matcher first needs them.
func (p *Pattern) literals() []Literal {
	p.once.Do(func() { p.lits, p.ids = p.table.lookup(p.expr) })
	return p.lits
}

// tableIDs returns the ids of p's literals in p.table, nil when the table
// does not hold p's expression.
func (p *Pattern) tableIDs() []uint16 {
	p.literals()
	return p.ids
}

// Compile compiles a Go RE2 expression matched against single lines.
// The error suits a "retry: --retry-if: " prefix.
func Compile(expr string) (*Pattern, error) {
	re, err := regexp.Compile(expr)
	if err != nil {
		var serr *syntax.Error
		if errors.As(err, &serr) {
			return nil, fmt.Errorf("bad regular expression %q: %s", expr, serr.Code)
		}
		return nil, fmt.Errorf("bad regular expression %q: %v", expr, err)
	}
	return &Pattern{expr: expr, re: re}, nil
}

// Known returns the Pattern of expr, a constant expression known to be
// valid (tests compile it): its regular expression is compiled when a line
// first holds its strings, and its literal strings are reduced from it
// when a Matcher first needs them (Table.Known skips that).
func Known(expr string) *Pattern {
	return &Pattern{expr: expr}
}

// regexp returns p's compiled expression.
func (p *Pattern) regexp() *regexp.Regexp {
	p.reOnce.Do(func() {
		if p.re == nil {
			p.re = regexp.MustCompile(p.expr)
		}
	})
	return p.re
}

// Groups returns the number of capture groups in p's expression.
func (p *Pattern) Groups() int { return p.regexp().NumSubexp() }

// String returns the expression as the user wrote it.
func (p *Pattern) String() string { return p.expr }

// Config says what an attempt's output is searched for.
type Config struct {
	StopIf, RetryIf []*Pattern
	// FailIf are the --fail-if patterns, which turn an exit 0 into a
	// failure.
	FailIf []*Pattern
	// Hint, when set, finds server hints: ParseHint reads the text its
	// first capture group caught, and Output keeps the last valid one.
	Hint      *Pattern
	ParseHint func(value string) (time.Duration, error)
	// MaxLine overrides MaxLine when positive (for tests).
	MaxLine int
	// Search, when set, is shared by the Matchers of the same patterns,
	// which then compile their search once; nil compiles it for this one.
	Search *Search
}

// Match tells which pattern matched first, and where.
type Match struct {
	Pattern string // the expression as given
	From    string // the pattern's From
	Stream  string // the name of the stream, as the caller gave it to Writer
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
// memory, for the patterns of a Config. It is safe for one writer per stream
// at a time, and streams may be written concurrently.
type Matcher struct {
	mu          sync.Mutex
	stop, retry []probe
	fail        []probe
	carried     bool // a watched stream carried a byte
	hint        *probe
	parseHint   func(string) (time.Duration, error)
	maxLine     int
	out         Output
	idx         *index   // built on the first line
	probes      []*probe // all of them, once idx is built
	anyAlways   bool     // always(), kept from build and each retire
	search      *Search  // where idx's set comes from
	gen         uint64   // counts the lines matched
}

// probe is one pattern in a Matcher.
type probe struct {
	pat    *Pattern
	always bool   // the pattern has no literal: every line is a candidate
	stamp  uint64 // the line the search last found one of its strings on
	dead   bool   // no further line can change what it decides
}

// New returns a Matcher for one attempt.
func New(w Config) *Matcher {
	m := &Matcher{parseHint: w.ParseHint, maxLine: w.MaxLine, search: w.Search}
	if m.maxLine <= 0 {
		m.maxLine = MaxLine
	}
	if m.search == nil {
		m.search = new(Search)
	}
	m.stop = probes(w.StopIf)
	m.retry = probes(w.RetryIf)
	m.fail = probes(w.FailIf)
	if w.Hint != nil {
		m.hint = &probe{pat: w.Hint}
	}
	return m
}

func probes(pats []*Pattern) []probe {
	ps := make([]probe, len(pats))
	for i, p := range pats {
		ps[i] = probe{pat: p}
	}
	return ps
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
	if m.hint != nil {
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
