// Package literal finds many literal strings at once in a run of bytes, each
// exact or with ASCII letters in either case: the search that picks out the
// output lines worth a regular expression.
//
// Each string is found through one of its bytes, its anchor, chosen from
// time to time on the text seen so that the strings share few and rare
// anchors. Strings on the same anchor share its search, and every anchor
// byte is searched with bytes.IndexByte, which the standard library
// vectorises: text where no anchor occurs is crossed at memory speed.
//
// Where that costs more, on amd64 with AVX2, the strings of four bytes and
// more are found instead in one pass over the text that looks up 32
// positions at a time against windows of four bytes of theirs (window.go).
// Both searches report the same occurrences; the purego build tag leaves
// only the first.
package literal

import (
	"bytes"
	"cmp"
	"encoding/binary"
	"slices"
)

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

// anchor is one byte value in use, and the strings checked wherever it
// occurs. The anchor keeps its next occurrence that checked true: the
// scan of one byte runs in a tight loop, and the anchors meet only there.
type anchor struct {
	at   int // position of that occurrence; -1 not searched yet, len(b) none
	ent  int // the entry that held there
	ents []entry
	// The entries sorted by what they check first: the four bytes from
	// the anchor on (byWord, the first words of them), else the byte
	// after the anchor (byNext), else the one before (byPrev), all in
	// lower case; single bytes, which have none, come last, from alone
	// on. idx has the buckets of byNext and byPrev.
	words int
	idx   *[2][257]uint16
	alone int
	// The bytes after the anchor (byWord and byNext) and before it
	// (byPrev) that some entry needs: most occurrences are turned down
	// here.
	keys [2]byteSet
}

// byteSet is a set of byte values.
type byteSet [4]uint64

func (s *byteSet) add(c byte)      { s[c>>6] |= 1 << (c & 63) }
func (s *byteSet) has(c byte) bool { return s[c>>6]&(1<<(c&63)) != 0 }

// The neighbour an entry checks first.
const (
	byWord = iota
	byNext
	byPrev
	byNone
)

// entry is a string anchored at one of its bytes: the anchor is off bytes
// after the string's start.
type entry struct {
	lit  *lit
	id   int32
	off  int32
	side uint8  // byWord, byNext, byPrev or byNone
	key  byte   // the neighbour, in lower case
	word uint32 // byWord: the four bytes from the anchor on, in lower case
}

// lowerWord reads the four bytes at the start of b as a little-endian word,
// in lower case.
func lowerWord(b []byte) uint32 {
	return uint32(lower[b[0]]) | uint32(lower[b[1]])<<8 | uint32(lower[b[2]])<<16 | uint32(lower[b[3]])<<24
}

// index sorts a's entries by neighbour and builds the table of buckets in
// idx; keys is room for the sort, returned grown.
func (a *anchor) index(idx *[2][257]uint16, keys []uint64) []uint64 {
	// Each entry's place in the order, then its index, in one word: a
	// sort of words, with no function to call.
	const idxBits = 24
	if len(a.ents) < 1<<idxBits {
		keys = keys[:0]
		for i, e := range a.ents {
			k := uint64(e.key)
			if e.side == byWord {
				k = uint64(e.word)
			}
			keys = append(keys, (uint64(e.side)<<32|k)<<idxBits|uint64(i))
		}
		slices.Sort(keys)
		for i, k := range keys {
			keys[i] = k & (1<<idxBits - 1)
		}
		permute(a.ents, keys)
	} else {
		slices.SortStableFunc(a.ents, func(x, y entry) int {
			switch {
			case x.side != y.side:
				return int(x.side) - int(y.side)
			case x.side == byWord:
				return cmp.Compare(x.word, y.word)
			}
			return int(x.key) - int(y.key)
		})
	}
	a.idx = idx
	a.alone = len(a.ents)
	i := 0
	for i < len(a.ents) && a.ents[i].side == byWord {
		i++
	}
	a.words = i
	ents := a.ents
	for side := byNext; side <= byPrev; side++ {
		row, k := &idx[side-byNext], 0 // row[k]: the first entry from k on
		for ; i < len(ents) && int(ents[i].side) == side; i++ {
			for ; k <= int(ents[i].key); k++ {
				row[k] = uint16(i)
			}
		}
		for ; k < len(row); k++ {
			row[k] = uint16(i)
		}
	}
	a.keys = [2]byteSet{}
	for _, e := range a.ents {
		switch e.side {
		case byWord, byNext:
			a.keys[0].add(e.key)
		case byPrev:
			a.keys[1].add(e.key)
		}
	}
	for j, e := range a.ents {
		if e.side == byNone {
			a.alone = j
			break
		}
	}
	return keys
}

// permute puts ents in the order of from: the entry at i is the one that
// was at from[i]. It marks from's top bits as it goes.
func permute(ents []entry, from []uint64) {
	const done = 1 << 63
	for i := range from {
		if from[i]&done != 0 {
			continue
		}
		// Follow the cycle through i.
		e, j := ents[i], i
		for {
			k := int(from[j] &^ done)
			from[j] |= done
			if k == i {
				ents[j] = e
				break
			}
			ents[j], j = ents[k], k
		}
	}
}

// NewScanner returns a Scanner for s.
func (s *Set) NewScanner() *Scanner {
	sc := &Scanner{set: s, off: make([]bool, len(s.lits)), cur: -1, active: make([]byte, 0, 256), simd: haveSIMD, simd512: haveSIMD && have512}
	sc.t.covered = make([]bool, len(s.lits))
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

// find returns the first place, from entry ent at position p of anchor byte
// c on, where an entry of a holds.
func (sc *Scanner) find(a *anchor, c byte, p, ent int) (int, int) {
	for p < len(sc.b) {
		if i := sc.check(a, p, ent); i >= 0 {
			return p, i
		}
		p, ent = indexFrom(sc.b, p+1, c), 0
	}
	return len(sc.b), 0
}

// check returns the first entry of a, from ent on, that holds with its
// anchor at p, or -1.
func (sc *Scanner) check(a *anchor, p, ent int) int {
	b := sc.b
	if k := lower[b[min(p+1, len(b)-1)]]; p+1 < len(b) && a.keys[0].has(k) {
		if a.words > 0 && p+4 <= len(b) {
			w := lowerWord(b[p:])
			lo, hi := 0, a.words
			for lo < hi {
				if mid := int(uint(lo+hi) >> 1); a.ents[mid].word < w {
					lo = mid + 1
				} else {
					hi = mid
				}
			}
			for i := max(lo, ent); i < a.words && a.ents[i].word == w; i++ {
				if sc.holds(&a.ents[i], p) {
					return i
				}
			}
		}
		for i := max(int(a.idx[0][k]), ent); i < int(a.idx[0][int(k)+1]); i++ {
			if sc.holds(&a.ents[i], p) {
				return i
			}
		}
	}
	if k := lower[b[max(p-1, 0)]]; p > 0 && a.keys[1].has(k) {
		for i := max(int(a.idx[1][k]), ent); i < int(a.idx[1][int(k)+1]); i++ {
			if sc.holds(&a.ents[i], p) {
				return i
			}
		}
	}
	for i := max(a.alone, ent); i < len(a.ents); i++ {
		if sc.holds(&a.ents[i], p) {
			return i
		}
	}
	return -1
}

// holds reports whether e's string occurs with its anchor at p.
func (sc *Scanner) holds(e *entry, p int) bool {
	s := p - int(e.off)
	if s < 0 || s+len(e.lit.text) > len(sc.b) {
		return false
	}
	if e.lit.head8 && binary.LittleEndian.Uint64(sc.b[s:])|e.lit.mask != e.lit.head {
		return false
	}
	return !sc.off[e.id] && e.lit.at(sc.b, s)
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
