package match

import (
	"bytes"
	"slices"
	"sync"

	"github.com/b0a38808/retry/runner/match/internal/literal"
)

// A Matcher's search of its lines: the literal strings of all its
// patterns found in one pass, and the regular expressions run on the lines
// that hold some.

// index is a Matcher's literal search: the strings of all its patterns in
// one Scanner, and the patterns each string stands for.
type index struct {
	sc     *literal.Scanner
	owners [][]int32 // by string id: the patterns, as indexes into probes (shared, read only)
	set    *literal.Set
	first  bool // sc chose its own anchors: keep them once it has
}

// Search is a rule set's compiled literal search, shared by the Matchers
// of its attempts so that each attempt that prints does not compile it
// again. The zero value is ready to use, and it is safe for concurrent use.
type Search struct {
	mu     sync.Mutex
	pats   []*Pattern // the probes' patterns it was compiled for
	set    *literal.Set
	owners [][]int32 // by string id: the probes, as indexes into pats
	// tuned is a Scanner of set with the anchors the first attempt chose
	// from its output, which later attempts start from.
	tuned *literal.Scanner
}

// compiled returns the set and owners for pats, compiling them when pats
// are not the ones it holds.
func (s *Search) compiled(pats []*Pattern) (*literal.Set, [][]int32) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.set != nil && slices.Equal(s.pats, pats) {
		return s.set, s.owners
	}
	ss, owners := gather(pats)
	s.pats, s.set, s.owners, s.tuned = pats, literal.NewSet(ss), owners, nil
	return s.set, s.owners
}

// gather returns the strings of pats, each once, and by string the
// patterns that hold it, as indexes into pats. When every pattern's
// strings come from one Table they are told apart by their ids there; a
// map is built only when some pattern is another.
func gather(pats []*Pattern) ([]literal.String, [][]int32) {
	n, table := 0, true
	var tab *Table // the one table of all the patterns' strings
	for _, p := range pats {
		n += len(p.literals())
		switch {
		case p.literals() == nil:
		case p.tableIDs() == nil || tab != nil && p.table != tab:
			table = false
		default:
			tab = p.table
		}
	}
	table = table && tab != nil
	ss := make([]literal.String, 0, n)
	of := make([]int32, 0, n) // by string of each pattern in turn: its index in ss
	var byTable []int32       // by id in tab: the index in ss, plus one
	var byString map[literal.String]int32
	if table {
		byTable = make([]int32, tab.Strings)
	} else {
		byString = make(map[literal.String]int32, n)
	}
	for _, p := range pats {
		ids := p.tableIDs()
		for j, l := range p.literals() {
			var id int32
			if table {
				if byTable[ids[j]] == 0 {
					ss = append(ss, literal.String(l))
					byTable[ids[j]] = int32(len(ss))
				}
				id = byTable[ids[j]] - 1
			} else {
				key := literal.String{Text: l.Text, Fold: l.Fold} // whatever its At
				var ok bool
				if id, ok = byString[key]; !ok {
					id = int32(len(ss))
					byString[key] = id
					ss = append(ss, literal.String(l))
				}
			}
			of = append(of, id)
		}
	}
	count := make([]int32, len(ss))
	for _, id := range of {
		count[id]++
	}
	owners, all := make([][]int32, len(ss)), make([]int32, len(of))
	for id, c := range count {
		owners[id], all = all[:0:c], all[c:]
	}
	k := 0
	for i, p := range pats {
		for range p.literals() {
			owners[of[k]] = append(owners[of[k]], int32(i))
			k++
		}
	}
	return ss, owners
}

// scanner returns a Scanner of set, tuned as the first attempt's was when
// there was one; first reports that there was none.
func (s *Search) scanner(set *literal.Set) (sc *literal.Scanner, first bool) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tuned != nil && s.set == set {
		return s.tuned.Clone(), false
	}
	return set.NewScanner(), true
}

// keep records sc, of set, once it has chosen from the text, for the
// attempts to come.
func (s *Search) keep(set *literal.Set, sc *literal.Scanner) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.set == set && s.tuned == nil {
		s.tuned = sc.Clone()
	}
}

// build compiles the index, when the first line arrives, or takes it from
// the Config's Search.
func (m *Matcher) build() {
	m.probes = m.all()
	pats := make([]*Pattern, len(m.probes))
	for i, p := range m.probes {
		pats[i] = p.pat
		p.always = p.pat.literals() == nil
	}
	set, ids := m.search.compiled(pats)
	sc, first := m.search.scanner(set)
	m.idx = &index{sc: sc, owners: ids, set: set, first: first}
	m.anyAlways = m.always()
}

// all returns the matcher's probes, stop, retry, fail, then the hint's.
func (m *Matcher) all() []*probe {
	ps := make([]*probe, 0, len(m.stop)+len(m.retry)+len(m.fail)+1)
	for i := range m.stop {
		ps = append(ps, &m.stop[i])
	}
	for i := range m.retry {
		ps = append(ps, &m.retry[i])
	}
	for i := range m.fail {
		ps = append(ps, &m.fail[i])
	}
	if m.hint != nil {
		ps = append(ps, m.hint)
	}
	return ps
}

// scan matches the lines of r, a run of complete lines separated by '\n'
// (the last one unterminated), that hold a string of some pattern, and
// every line when a pattern has no string.
func (m *Matcher) scan(stream string, r []byte) {
	if m.idx == nil {
		m.build()
	}
	sc := m.idx.sc
	always := m.anyAlways
	if !always && !sc.Live() {
		return
	}
	sc.Reset(r)
	if m.idx.first && sc.Chosen() {
		m.idx.first = false
		m.search.keep(m.idx.set, sc)
	}
	start, id, found := sc.Next()
	for s := 0; s <= len(r); {
		if !always {
			if !found {
				return
			}
			s += bytes.LastIndexByte(r[s:start], '\n') + 1
		}
		e := bytes.IndexByte(r[s:], '\n')
		if e < 0 {
			e = len(r)
		} else {
			e += s
		}
		m.gen++
		for found && start <= e {
			for _, i := range m.idx.owners[id] {
				m.probes[i].stamp = m.gen
			}
			start, id, found = sc.Next()
		}
		if m.line(stream, m.clip(r[s:e])) {
			if m.settled() {
				return
			}
			m.retire()
			always = m.anyAlways
		}
		s = e + 1
	}
}

// candidate reports whether p must be matched against the current line.
func (m *Matcher) candidate(p *probe) bool {
	return !p.dead && (p.always || p.stamp == m.gen)
}

// always reports whether a pattern that still counts has no string.
func (m *Matcher) always() bool {
	for _, p := range m.probes {
		if p.always && !p.dead {
			return true
		}
	}
	return false
}

// line matches one candidate line; decided reports a first stop, retry or
// fail match.
func (m *Matcher) line(stream string, l []byte) (decided bool) {
	if m.out.StopIf == nil {
		for i := range m.stop {
			if p := &m.stop[i]; m.candidate(p) && p.pat.regexp().Match(l) {
				m.out.StopIf, decided = p.match(stream, l), true
				break
			}
		}
	}
	if m.out.StopIf == nil && m.out.RetryIf == nil {
		for i := range m.retry {
			if p := &m.retry[i]; m.candidate(p) && p.pat.regexp().Match(l) {
				m.out.RetryIf, decided = p.match(stream, l), true
				break
			}
		}
	}
	if m.out.FailIf == nil {
		for i := range m.fail {
			if p := &m.fail[i]; m.candidate(p) && p.pat.regexp().Match(l) {
				m.out.FailIf, decided = p.match(stream, l), true
				break
			}
		}
	}
	if p := m.hint; p != nil && m.candidate(p) {
		m.hintLine(l)
	}
	return decided
}

func (p *probe) match(stream string, l []byte) *Match {
	return &Match{Pattern: p.pat.expr, From: p.pat.From, Stream: stream, Line: shorten(l)}
}

// retire stops the search for the strings of patterns that a match made
// moot: every stop and retry pattern once a stop matched, the retry ones
// once a retry matched, the fail ones once a fail matched.
func (m *Matcher) retire() {
	for i := range m.stop {
		m.stop[i].dead = m.out.StopIf != nil
	}
	for i := range m.retry {
		m.retry[i].dead = m.out.StopIf != nil || m.out.RetryIf != nil
	}
	for i := range m.fail {
		m.fail[i].dead = m.out.FailIf != nil
	}
	for id, owners := range m.idx.owners {
		if !slices.ContainsFunc(owners, func(i int32) bool { return !m.probes[i].dead }) {
			m.idx.sc.Disable(id)
		}
	}
	m.anyAlways = m.always()
}

// hintLine records the hint on l, when it holds a valid one.
func (m *Matcher) hintLine(l []byte) {
	sub := m.hint.pat.regexp().FindSubmatch(l)
	if sub == nil {
		return
	}
	if d, err := m.parseHint(string(sub[1])); err == nil {
		m.out.Hint, m.out.HasHint = d, true
	}
}
