// Package literal finds many literal strings at once in a run of bytes, each
// exact or with ASCII letters in either case: the search that picks out the
// output lines worth a regular expression.
//
// Each string is found through one of its bytes, its anchor (anchor.go),
// chosen from time to time on the text seen (tune.go) so that the strings
// share few and rare anchors. Strings on the same anchor share its search, and every anchor
// byte is searched with bytes.IndexByte, which the standard library
// vectorises: text where no anchor occurs is crossed at memory speed.
//
// Where that costs more, on amd64 with AVX2, the strings of four bytes and
// more are found instead in one pass over the text that looks up 32
// positions at a time against windows of four bytes of theirs (window.go).
// Both searches report the same occurrences; the purego build tag leaves
// only the first.
package literal

import "bytes"

// Scanner searches one run of bytes at a time for the Strings of a Set. It
// keeps what it learnt about the text (which bytes are rare) from one run to
// the next. A Scanner is not safe for concurrent use.
type Scanner struct {
	set  *Set
	off  []bool // strings no longer searched for
	live int    // strings still searched for
	b    []byte

	anchors [256]anchor      // by byte value
	active  []byte           // the anchor bytes in use, in increasing order
	ents    []entry          // the anchors' entries, one after the other
	idxs    [][2][257]uint16 // the anchors' tables, in the order of active
	shared  bool             // ents and idxs are the Set's first anchors': read only
	cur     int              // the anchor whose entries are being checked, -1 none

	tuned  bool // the anchors have been chosen
	first  bool // they are the strings' first bytes (tuner.chooseFirst)
	untune int  // bytes to search before the anchors are chosen again
	// every is how many bytes from one look at the frequencies to the
	// next: retune, doubled at each look, up to maxRetune.
	every  int
	retune bool // Disable changed the strings: choose again at the next Reset
	// chosenLive is how many strings were searched for when the anchors
	// were last chosen.
	chosenLive int
	t          tuner

	simd    bool    // strings of winSize bytes or more may be searched by w
	simd512 bool    // w looks up with AVX-512, 64 positions at a time
	w       windows // the SIMD search
	// forceSIMD has w take every string it can, whatever the anchors
	// would cost, from the first run on: for the tests.
	forceSIMD bool
}

// NewScanner returns a Scanner for s.
func (s *Set) NewScanner() *Scanner {
	sc := &Scanner{set: s, off: make([]bool, len(s.lits)), cur: -1, active: make([]byte, 0, 256), simd: haveSIMD, simd512: haveSIMD && have512}
	sc.t.covered = make([]bool, len(s.lits))
	for i, l := range s.lits {
		sc.off[i] = len(l.text) == 0 // never found
	}
	sc.live = s.live
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

// Chosen reports whether sc has chosen its anchors from the text seen:
// the first runs search by the strings' first bytes (String.At) instead.
func (sc *Scanner) Chosen() bool { return sc.tuned && !sc.first }

// The anchors are chosen again after retune bytes, from a sample of the
// run at hand; sooner while little text has been seen; later at each look,
// up to maxRetune: text of two kinds in turn (a build's commands and its
// tests' output) would otherwise make every look choose, at more than the
// search of the MiB between costs, and a look that chooses nothing still
// costs a tenth of that search.
const (
	retune    = 1 << 20
	maxRetune = 64 << 20
	sample    = 8 << 10
	warmup    = 64 << 10
)

// Reset starts the search of b. Next then reports the occurrences in b.
// The first runs find each string by the byte its String.At names, or its
// rarest; the anchors are chosen from the text after warmup bytes, then
// again every retune bytes or more (see maxRetune) when the bytes'
// frequencies moved, each time from the first sample bytes seen once the
// time has come (runs of a line or two add up), and after Disable. The
// SIMD search is weighed at each choice.
func (sc *Scanner) Reset(b []byte) {
	sc.checkHits(len(sc.b))
	sc.b, sc.cur = b, -1
	switch {
	case !sc.tuned:
		sc.t.add(b)
		sc.t.estimate()
		if sc.forceSIMD {
			sc.t.choose(sc)
		} else {
			sc.t.chooseFirst(sc)
		}
		sc.tuned, sc.untune, sc.every = true, warmup, retune
	case sc.untune <= 0:
		if sc.simd && sc.t.grams == nil {
			sc.t.grams = new(grams) // from the first choice from the text on, as the windows
		}
		if sc.t.add(b); sc.t.n >= sample {
			sc.w.rechosen = 0
			if sc.t.estimate(); sc.first || sc.t.moved() && !sc.fine() || sc.simd && !sc.w.tried {
				sc.t.choose(sc)
			}
			sc.every = min(2*sc.every, maxRetune)
			sc.untune = sc.every
		}
	case sc.retune:
		sc.t.choose(sc)
	}
	sc.retune = false
	sc.untune -= len(b)
	for _, c := range sc.active {
		sc.anchors[c].at = -1
	}
	sc.w.at, sc.w.next, sc.w.pend, sc.w.ended = -1, 0, sc.w.pend[:0], false
	sc.w.t.n, sc.w.ci, sc.w.bits, sc.w.cands, sc.w.runHits = 0, -1, 0, 0, 0
}

// Next returns the next occurrence in the run given to Reset: its start and
// the string's id. Every occurrence of every string still searched for is
// reported once. They come in the order of their anchors' positions, so
// the lines of the run, for strings that hold no newline, come in order.
func (sc *Scanner) Next() (start, id int, ok bool) {
	b := sc.b
	switch {
	case sc.cur == curWindows:
		sc.wnext()
	case sc.cur >= 0:
		a := &sc.anchors[sc.cur]
		a.at, a.ent = sc.find(a, byte(sc.cur), a.at, a.ent+1)
	}
	best, at := -1, len(b)
	if sc.w.on {
		if sc.w.at < 0 {
			sc.wnext()
		}
		if sc.w.at < at {
			best, at = curWindows, sc.w.at
		}
	}
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
	switch best {
	case -1:
		return 0, 0, false
	case curWindows:
		e := sc.w.pend[sc.w.pi]
		return at - int(e.off), int(e.id), true
	}
	e := &sc.anchors[best].ents[sc.anchors[best].ent]
	return at - int(e.off), int(e.id), true
}

// curWindows is Scanner.cur when the occurrence reported last came from
// the SIMD search.
const curWindows = 256

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

// Clone returns a new Scanner for sc's Set with every string searched for
// again, and, when sc's anchors were last chosen for every string, those
// anchors: a later run of the same command starts with what sc learnt
// instead of from the strings' first bytes. sc is only read.
func (sc *Scanner) Clone() *Scanner {
	c := sc.set.NewScanner()
	c.simd, c.simd512, c.forceSIMD = sc.simd, sc.simd512, sc.forceSIMD
	if !sc.tuned || sc.chosenLive != c.live {
		return c
	}
	c.t.est = sc.t.est
	if sc.t.grams != nil {
		g := sc.t.grams
		c.t.grams = &grams{est: g.est, estN: g.estN, estText: g.estText, estTextN: g.estTextN, leakText: g.leakText, leakN: g.leakN}
	}
	c.active = append(c.active, sc.active...)
	n := 0
	for _, b := range sc.active {
		n += len(sc.anchors[b].ents)
	}
	c.ents, c.idxs = make([]entry, 0, n), make([][2][257]uint16, len(sc.active))
	for j, b := range sc.active {
		a := sc.anchors[b]
		from := len(c.ents)
		c.ents = append(c.ents, a.ents...)
		a.ents = c.ents[from:len(c.ents):len(c.ents)]
		c.idxs[j] = *a.idx
		a.idx = &c.idxs[j]
		c.anchors[b] = a
		c.t.used[b] = true
	}
	c.w = sc.w.clone()
	c.tuned, c.first, c.untune, c.every, c.chosenLive = true, sc.first, warmup, retune, c.live
	return c
}
