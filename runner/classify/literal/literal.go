// Package literal finds many literal strings at once in a run of bytes, each
// exact or with ASCII letters in either case: the search that picks out the
// output lines worth a regular expression.
//
// Each string is found through one of its bytes, its anchor, chosen from
// time to time as the byte of that string that is rarest in the text seen.
// Strings that choose the same anchor share its search, and every anchor
// byte is searched with bytes.IndexByte, which the standard library
// vectorises: text where no anchor occurs is crossed at memory speed.
package literal

import "bytes"

// String is one literal to find.
type String struct {
	Text string
	// Fold makes ASCII letters match in either case; other bytes match
	// exactly.
	Fold bool
}

// Set is a compiled list of Strings, searched by its Scanners. It is
// immutable and may be shared.
type Set struct {
	lits   []lit
	maxLen int
}

// lit is a String as the search uses it.
type lit struct {
	text []byte // lower case when fold
	fold bool
}

// NewSet compiles ss; a String's index in ss is its id. An empty String is
// never found.
func NewSet(ss []String) *Set {
	s := &Set{lits: make([]lit, len(ss))}
	for i, str := range ss {
		l := lit{text: []byte(str.Text), fold: str.Fold}
		if l.fold {
			for j, c := range l.text {
				l.text[j] = lower[c]
			}
		}
		s.lits[i] = l
		s.maxLen = max(s.maxLen, len(l.text))
	}
	return s
}

// Len returns the number of Strings in the set.
func (s *Set) Len() int { return len(s.lits) }

// at reports whether l occurs in b at start.
func (l *lit) at(b []byte, start int) bool {
	end := start + len(l.text)
	if start < 0 || end > len(b) {
		return false
	}
	if !l.fold {
		return bytes.Equal(b[start:end], l.text)
	}
	for i, c := range b[start:end] {
		if lower[c] != l.text[i] {
			return false
		}
	}
	return true
}

// lower maps ASCII upper-case letters to lower case and every other byte to
// itself.
var lower = func() (t [256]byte) {
	for i := range t {
		t[i] = byte(i)
		if 'A' <= i && i <= 'Z' {
			t[i] += 'a' - 'A'
		}
	}
	return t
}()

// Scanner searches one run of bytes at a time for the Strings of a Set. It
// keeps what it learnt about the text (which bytes are rare) from one run to
// the next. A Scanner is not safe for concurrent use.
type Scanner struct {
	set  *Set
	off  []bool // strings no longer searched for
	live int    // strings still searched for
	b    []byte

	anchors [256]anchor // by byte value
	active  []byte      // the anchor bytes in use
	cur     int         // the anchor whose entries are being checked, -1 none
	ent     int         // the next entry of cur to check

	untune int  // bytes to search before the anchors are chosen again
	seen   int  // bytes searched so far, up to a limit
	retune bool // Disable changed the strings: choose again at the next Reset
	t      tuner
}

// anchor is one byte value in use, and the strings checked wherever it
// occurs. The anchor keeps its next occurrence that checked true: the
// scan of one byte runs in a tight loop, and the anchors meet only there.
type anchor struct {
	at   int // position of that occurrence; -1 not searched yet, len(b) none
	ent  int // the entry that held there
	ents []entry
}

// entry is a string anchored at one of its bytes: the anchor is off bytes
// after the string's start.
type entry struct {
	lit *lit
	id  int32
	off int32
}

// NewScanner returns a Scanner for s.
func (s *Set) NewScanner() *Scanner {
	sc := &Scanner{set: s, off: make([]bool, len(s.lits)), cur: -1, active: make([]byte, 0, 256)}
	for i, l := range s.lits {
		sc.off[i] = len(l.text) == 0 // never found
		if !sc.off[i] {
			sc.live++
		}
	}
	return sc
}

// Disable stops the search for string id from the next Reset on.
func (sc *Scanner) Disable(id int) {
	if !sc.off[id] {
		sc.off[id] = true
		sc.live--
		sc.retune = true
	}
}

// Live reports whether some string is still searched for.
func (sc *Scanner) Live() bool { return sc.live > 0 }

// The anchors are chosen again after retune bytes, from a sample of the
// run at hand; sooner while little text has been seen.
const (
	retune = 1 << 20
	sample = 8 << 10
	warmup = 64 << 10
)

// Reset starts the search of b. Next then reports the occurrences in b.
func (sc *Scanner) Reset(b []byte) {
	sc.b, sc.cur = b, -1
	if sc.untune <= 0 || sc.retune {
		sc.t.choose(sc, b[:min(len(b), sample)])
		sc.retune = false
		sc.untune = retune
		if sc.seen < warmup {
			sc.untune = warmup
		}
	}
	sc.untune -= len(b)
	sc.seen = min(sc.seen+len(b), warmup)
	for _, c := range sc.active {
		sc.anchors[c].at = -1
	}
}

// Next returns the next occurrence in the run given to Reset: its start and
// the string's id. Every occurrence of every string still searched for is
// reported once. They come in the order of their anchors' positions, so
// the lines of the run, for strings that hold no newline, come in order.
func (sc *Scanner) Next() (start, id int, ok bool) {
	b := sc.b
	if sc.cur >= 0 {
		a := &sc.anchors[sc.cur]
		a.at, a.ent = sc.find(a, byte(sc.cur), a.at, a.ent+1)
	}
	best, at := -1, len(b)
	for _, c := range sc.active {
		a := &sc.anchors[c]
		if a.at < 0 {
			a.at, a.ent = sc.find(a, c, indexFrom(b, 0, c), 0)
		}
		if a.at < at {
			best, at = int(c), a.at
		}
	}
	sc.cur = best
	if best < 0 {
		return 0, 0, false
	}
	e := &sc.anchors[best].ents[sc.anchors[best].ent]
	return at - int(e.off), int(e.id), true
}

// find returns the first place, from entry ent at position p of anchor byte
// c on, where an entry of a holds.
func (sc *Scanner) find(a *anchor, c byte, p, ent int) (int, int) {
	b := sc.b
	for p < len(b) {
		for ; ent < len(a.ents); ent++ {
			e := &a.ents[ent]
			if e.lit.at(b, p-int(e.off)) && !sc.off[e.id] {
				return p, ent
			}
		}
		p, ent = indexFrom(b, p+1, c), 0
	}
	return len(b), 0
}

// indexFrom is the position of the first c in b at or after from, len(b)
// when there is none.
func indexFrom(b []byte, from int, c byte) int {
	if from >= len(b) {
		return len(b)
	}
	if i := bytes.IndexByte(b[from:], c); i >= 0 {
		return from + i
	}
	return len(b)
}
