package literal

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// The anchors: each string still searched for, unless the SIMD search
// takes it, is checked wherever one byte of it occurs. This file has
// their entries, how they are placed and sorted, and how an occurrence is
// checked; tune.go chooses them.

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

// chooseFirst anchors each string still searched for on its first byte
// (lit.first), for the first runs: it needs no keys and no cover.
func (t *tuner) chooseFirst(sc *Scanner) {
	sc.clearAnchors()
	t.chosenEst = t.est
	sc.w.on = false
	sc.first = true
	if sc.live == sc.set.live {
		// Every string: the Set's first anchors, placed once for all its
		// Scanners.
		placed := false
		sc.set.firstOnce.Do(func() {
			t.placeFirst(sc)
			sc.set.firstAnchors, placed = sc.snapshot(), true
		})
		if !placed {
			sc.restore(&sc.set.firstAnchors)
		}
		return
	}
	t.placeFirst(sc)
}

// placeFirst anchors each string still searched for on its first byte.
func (t *tuner) placeFirst(sc *Scanner) {
	t.picks = t.picks[:0]
	for id, l := range sc.set.lits {
		if !sc.off[id] {
			t.picks = append(t.picks, pick{id: int32(id), off: l.first, key: int16(keyOf(l.text[l.first], l.fold))})
		}
	}
	sc.place(t.picks)
}

// placed is a Scanner's anchors, shared read only by the Scanners that
// restore it.
type placed struct {
	active  []byte
	anchors []anchor // in the order of active
	ents    []entry
	idxs    [][2][257]uint16
}

// snapshot returns sc's anchors; sc no longer writes to their arrays.
func (sc *Scanner) snapshot() placed {
	p := placed{active: slices.Clone(sc.active), ents: sc.ents, idxs: sc.idxs}
	for _, c := range sc.active {
		p.anchors = append(p.anchors, sc.anchors[c])
	}
	sc.shared = true
	return p
}

// restore sets sc's anchors to p's, shared until sc next chooses.
func (sc *Scanner) restore(p *placed) {
	sc.active = append(sc.active, p.active...)
	for i, c := range p.active {
		sc.anchors[c] = p.anchors[i]
		sc.t.used[c] = true
	}
	sc.ents, sc.idxs, sc.shared = p.ents, p.idxs, true
	sc.chosenLive = sc.live
}

// pickAll returns the strings still searched for that the SIMD search does
// not take, each on the rarest key of the cover it holds.
func (t *tuner) pickAll(sc *Scanner) []pick {
	t.picks = t.picks[:0]
	for id, l := range sc.set.lits {
		if sc.off[id] || sc.w.covers(id) {
			continue
		}
		best, bestFreq := -1, 0.0
		for _, k := range sc.set.keys[id] {
			if !t.chosen[k] {
				continue
			}
			if f := t.freq(int(k)); best < 0 || f < bestFreq {
				best, bestFreq = int(k), f
			}
		}
		off := 0
		for keyOf(l.text[off], l.fold) != best {
			off++
		}
		t.picks = append(t.picks, pick{id: int32(id), off: int32(off), key: int16(best)})
	}
	return t.picks
}

// clearAnchors takes every anchor out of use.
func (sc *Scanner) clearAnchors() {
	for _, c := range sc.active {
		sc.anchors[c] = anchor{}
		sc.t.used[c] = false
	}
	sc.active = sc.active[:0]
}

// place anchors each string of picks on the bytes of its key.
func (sc *Scanner) place(picks []pick) {
	var count [256]int32 // the entries of each anchor byte
	for _, p := range picks {
		for _, c := range sc.t.bytes(int(p.key)) {
			count[c]++
		}
	}
	// The entries of all the anchors share one array, and their tables
	// another: choosing again allocates nothing.
	n := 0
	for c, m := range count {
		if m > 0 {
			sc.active = append(sc.active, byte(c))
			sc.t.used[c] = true
			n += int(m)
		}
	}
	if cap(sc.ents) < n || sc.shared {
		sc.ents = make([]entry, n)
	}
	if len(sc.idxs) < len(sc.active) || sc.shared {
		sc.idxs = make([][2][257]uint16, len(sc.active))
	}
	sc.shared = false
	n = 0
	for _, c := range sc.active {
		sc.anchors[c].ents = sc.ents[n : n : n+int(count[c])]
		n += int(count[c])
	}
	for _, p := range picks {
		e := entry{lit: &sc.set.lits[p.id], id: p.id, off: p.off}
		for _, c := range sc.t.bytes(int(p.key)) {
			sc.anchors[c].add(e)
		}
	}
	for j, c := range sc.active {
		sc.t.sortKeys = sc.anchors[c].index(&sc.idxs[j], sc.t.sortKeys)
	}
	sc.chosenLive = sc.live
}

// pick is a string anchored on a key, off bytes after its start.
type pick struct {
	id, off int32
	key     int16
}

// add anchors entry e on a.
func (a *anchor) add(e entry) {
	text, off := e.lit.text, int(e.off)
	switch {
	case off+4 <= len(text):
		e.side, e.key, e.word = byWord, lower[text[off+1]], lowerWord(text[off:])
	case off+1 < len(text):
		e.side, e.key = byNext, lower[text[off+1]]
	case off > 0:
		e.side, e.key = byPrev, lower[text[off-1]]
	default:
		e.side = byNone
	}
	a.ents = append(a.ents, e)
}
