// Package literal finds many literal strings at once in a run of bytes, each
// exact or with ASCII letters in either case: the search that picks out the
// output lines worth a regular expression. It is internal to runner/match:
// other Go programs cannot import it.
//
// Each string is found through one of its bytes, its anchor (anchor.go):
// every anchor byte is searched with bytes.IndexByte, which the standard
// library vectorises, and strings on the same anchor share its search. On
// amd64 with AVX2, the strings of four bytes and more may be found instead
// in one pass over the text that looks up 32 or 64 positions at a time
// against windows of four bytes of theirs, as the Teddy searcher does
// (window.go). Both searches report the same occurrences; the purego build
// tag leaves only the first.
//
// A Scanner starts on anchors chosen when its Set is built. Once it has
// seen warmup bytes, it chooses from a sample of the text which search
// takes each string, and on which bytes (choose.go). After that one signal
// alone makes it choose again: it counts the candidates turned down beyond
// what the choice expected, and chooses again when they add up to cutover.
// README.md teaches the algorithm with a worked example, and says what
// measured each constant. Its windows are modelled on Teddy, the SIMD
// search of Hyperscan and of Rust's aho-corasick crate (README.md links
// both).
package literal

import "bytes"

// Scanner searches one run of bytes at a time for the Strings of a Set. It
// keeps what it learnt about the text from one run to the next. A Scanner
// is not safe for concurrent use.
type Scanner struct {
	set  *Set
	off  []bool // by string: no longer searched for
	live int    // strings still searched for
	b    []byte // the run being searched
	cur  int    // the anchor byte whose entries are being checked, curWindows, or -1

	// cands counts the candidates turned down in the run (anchor
	// occurrences, window candidates where no string holds): the
	// signal's one input.
	cands int
	tn    tuning

	a anchors // the anchor search
	w windows // the SIMD search

	simd    bool // strings of winSize bytes or more may be searched by w
	simd512 bool // w looks up with AVX-512, 64 positions at a time
	// forceSIMD has w take every string it can, whatever the anchors
	// would cost, from the first run on: for the tests.
	forceSIMD bool
}

// tuning is when a Scanner chooses, and what it has learnt for choosing.
type tuning struct {
	fromText bool    // the search in place was chosen from the text; else the first anchors
	sampling bool    // a choice is due: the sample is being gathered
	bytes    int     // searched since the last choice, or since the start
	excess   float64 // after the first choice, the signal: see count
	// expect is how many candidates per byte of text the last choice
	// estimated its search would turn down.
	expect  float64
	choices int // how many choices were made, for the tests
	// chosenLive is how many strings were searched for at the last
	// choice.
	chosenLive int
	smp        *sample   // the text gathered for the next choice; nil before the first
	est        estimates // what the last sample taught, for its choice
	cov        cover     // the choice's workspace
}

// When a Scanner chooses. The first runs search by the first anchors, chosen
// when the Set was built (FirstAnchors): a command that prints less than
// warmup bytes never pays for a choice. Then a choice is made from a sample
// of the text, and the choice estimates how many candidates per byte its
// search will turn down. After it, one signal: the candidates turned down
// beyond that estimate, or beyond one per candGap bytes where that is more (a
// candidate a KiB costs about what an IndexByte pass does), added up over
// the runs and never below zero. When it reaches cutover, about what a
// choice costs, the search chooses again from the next runs' text.
const (
	warmup  = 64 << 10
	candGap = 1024
	cutover = 8192
)

// NewScanner returns a Scanner for s.
func (s *Set) NewScanner() *Scanner {
	avx2, avx512 := simd()
	sc := &Scanner{set: s, off: make([]bool, len(s.lits)), cur: -1, simd: avx2, simd512: avx2 && avx512}
	sc.a.active = make([]byte, 0, 256)
	sc.tn.cov.covered = make([]bool, len(s.lits))
	for i, l := range s.lits {
		sc.off[i] = len(l.text) == 0 // never found
	}
	sc.live = s.live
	sc.chooseFirst()
	return sc
}

// Disable stops the search for string id from the next Reset on.
func (sc *Scanner) Disable(id int) {
	if !sc.off[id] {
		sc.off[id] = true
		sc.live--
	}
}

// Live reports whether some string is still searched for.
func (sc *Scanner) Live() bool { return sc.live > 0 }

// Chosen reports whether sc has chosen its search from the text seen: the
// first runs search by the strings' first bytes (String.At) instead.
func (sc *Scanner) Chosen() bool { return sc.tn.fromText }

// Reset starts the search of b. Next then reports the occurrences in b.
// When a choice is due, b's first bytes go into the sample, and once it is
// full the search is chosen before b is searched.
func (sc *Scanner) Reset(b []byte) {
	sc.count(len(sc.b))
	sc.b, sc.cur = b, -1
	if sc.forceSIMD && !sc.tn.fromText {
		sc.startSample()
		sc.tn.smp.add(b, sc.simd)
		sc.choose()
	} else if sc.tn.sampling && sc.tn.smp.add(b, sc.simd) {
		sc.choose()
	}
	for _, c := range sc.a.active {
		sc.a.by[c].at = -1
	}
	sc.w.reset()
}

// count adds the run of n bytes just searched, and the candidates it turned
// down, to the signal, and starts a sample when a choice is due.
func (sc *Scanner) count(n int) {
	tn := &sc.tn
	cands := sc.cands
	sc.cands = 0
	tn.bytes += n
	switch {
	case tn.sampling:
	case !tn.fromText:
		if tn.bytes >= warmup {
			sc.startSample()
		}
	default:
		allow := max(tn.expect, 1/float64(candGap))
		tn.excess = max(tn.excess+float64(cands)-allow*float64(n), 0)
		if tn.excess >= float64(cutover) {
			sc.startSample()
		}
	}
}

// startSample starts gathering the sample of the next choice.
func (sc *Scanner) startSample() {
	tn := &sc.tn
	if tn.smp == nil {
		tn.smp = new(sample)
	}
	tn.smp.clear()
	tn.sampling = true
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
		a := &sc.a.by[sc.cur]
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
	for _, c := range sc.a.active {
		a := &sc.a.by[c]
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
	e := &sc.a.by[best].ents[sc.a.by[best].ent]
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
// again, and, when sc's search was last chosen for every string, that
// search and what sc learnt: a later run of the same command starts where
// sc is instead of from the first anchors. sc is only read.
func (sc *Scanner) Clone() *Scanner {
	c := sc.set.NewScanner()
	c.simd, c.simd512, c.forceSIMD = sc.simd, sc.simd512, sc.forceSIMD
	if !sc.tn.fromText || sc.tn.chosenLive != c.live {
		return c
	}
	c.a = sc.a.clone()
	c.w = sc.w.clone()
	c.tn.fromText, c.tn.chosenLive, c.tn.expect = true, c.live, sc.tn.expect
	return c
}
