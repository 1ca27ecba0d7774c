package literal

import (
	"cmp"
	"encoding/binary"
	"slices"
)

// The anchors: each string still searched for, unless the SIMD search
// takes it, is checked wherever one byte of it occurs. This file has
// their entries, how they are placed and sorted, and how an occurrence is
// checked; choose.go chooses them.

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
	n := 0 // occurrences turned down, for the signal
	for p < len(sc.b) {
		if i := sc.check(a, p, ent); i >= 0 {
			sc.cands += n
			return p, i
		}
		n++
		p, ent = indexFrom(sc.b, p+1, c), 0
	}
	sc.cands += n
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
	return sc.occurs(e.lit, e.id, p-int(e.off))
}

// occurs reports whether string id, l, is still searched for and occurs
// at s: the search's last check, for an anchor's entry and a window's
// alike.
func (sc *Scanner) occurs(l *lit, id int32, s int) bool {
	if s < 0 || s+len(l.text) > len(sc.b) {
		return false
	}
	if l.head8 && binary.LittleEndian.Uint64(sc.b[s:])|l.mask != l.head {
		return false
	}
	return !sc.off[id] && l.at(sc.b, s)
}

// anchors is a Scanner's anchor search: the anchor bytes in use and the
// strings checked wherever each occurs.
type anchors struct {
	by     [256]anchor      // by byte value
	active []byte           // the anchor bytes in use, in increasing order
	ents   []entry          // the anchors' entries, one after the other
	idxs   [][2][257]uint16 // the anchors' tables, in the order of active
	shared bool             // ents and idxs are the Set's first anchors': read only
	keys   []uint64         // room to sort an anchor's entries (index)
}

// placed is a Scanner's anchors, shared read only by the Scanners that
// restore it.
type placed struct {
	active  []byte
	anchors []anchor // in the order of active
	ents    []entry
	idxs    [][2][257]uint16
}

// snapshot returns a's anchors; a no longer writes to their arrays.
func (a *anchors) snapshot() placed {
	p := placed{active: slices.Clone(a.active), ents: a.ents, idxs: a.idxs}
	for _, c := range a.active {
		p.anchors = append(p.anchors, a.by[c])
	}
	a.shared = true
	return p
}

// restore sets a's anchors to p's, shared until a is placed again.
func (a *anchors) restore(p *placed) {
	a.active = append(a.active[:0], p.active...)
	for i, c := range p.active {
		a.by[c] = p.anchors[i]
	}
	a.ents, a.idxs, a.shared = p.ents, p.idxs, true
}

// clone returns a copy of a that shares nothing with it that a writes to.
func (a *anchors) clone() anchors {
	c := *a
	c.active, c.keys = append(make([]byte, 0, 256), a.active...), nil
	if a.shared {
		return c
	}
	n := 0
	for _, b := range a.active {
		n += len(a.by[b].ents)
	}
	c.ents, c.idxs = make([]entry, 0, n), make([][2][257]uint16, len(a.active))
	for j, b := range a.active {
		x := &c.by[b]
		from := len(c.ents)
		c.ents = append(c.ents, x.ents...)
		x.ents = c.ents[from:len(c.ents):len(c.ents)]
		c.idxs[j] = *x.idx
		x.idx = &c.idxs[j]
	}
	return c
}

// clear takes every anchor out of use.
func (a *anchors) clear() {
	for _, c := range a.active {
		a.by[c] = anchor{}
	}
	a.active = a.active[:0]
}

// place anchors each string of picks, of lits, on the bytes of its key.
func (a *anchors) place(lits []lit, picks []pick) {
	a.clear()
	var count [256]int32 // the entries of each anchor byte
	for _, p := range picks {
		for _, c := range keyBytes(int(p.key)) {
			count[c]++
		}
	}
	// The entries of all the anchors share one array, and their tables
	// another: placing again allocates nothing.
	n := 0
	for c, m := range count {
		if m > 0 {
			a.active = append(a.active, byte(c))
			n += int(m)
		}
	}
	if cap(a.ents) < n || a.shared {
		a.ents = make([]entry, n)
	}
	if len(a.idxs) < len(a.active) || a.shared {
		a.idxs = make([][2][257]uint16, len(a.active))
	}
	a.shared = false
	n = 0
	for _, c := range a.active {
		a.by[c].ents = a.ents[n : n : n+int(count[c])]
		n += int(count[c])
	}
	for _, p := range picks {
		e := entry{lit: &lits[p.id], id: p.id, off: p.off}
		for _, c := range keyBytes(int(p.key)) {
			a.by[c].add(e)
		}
	}
	for j, c := range a.active {
		a.keys = a.by[c].index(&a.idxs[j], a.keys)
	}
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
