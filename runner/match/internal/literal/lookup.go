package literal

import (
	"encoding/binary"
	"math/bits"
)

// numBuckets is how many buckets the windows go into.
const numBuckets = 16

// tables are the SIMD search's lookups, laid out as scanAVX2 reads them: for
// buckets 0 to 7 and then 8 to 15, for each byte of a window, the buckets by
// low nibble, then likewise by high nibble, each table twice (once for each
// 16-byte lane); then the blocks found with a candidate, n of them; then the
// same lookups by whole ASCII byte, as scan512 reads them.
type tables struct {
	lo    [2][winSize][32]byte
	hi    [2][winSize][32]byte
	found [batch]cand
	n     int
	full  [2][winSize][128]byte
}

// batch is how many blocks with a candidate scanAVX2 records before it
// returns.
const batch = 16

// cand is a block of 32 positions with a candidate: the buckets of each
// position, 0 to 7 and 8 to 15, where it starts, and its positions with
// some bucket.
type cand struct {
	out  [2][32]byte
	at   int
	bits uint32
	_    uint32
}

// buckets returns the buckets of position k of c.
func (c *cand) buckets(k int) uint16 { return uint16(c.out[0][k]) | uint16(c.out[1][k])<<8 }

// wnext moves the SIMD search on to its next occurrence.
func (sc *Scanner) wnext() {
	w := &sc.w
	if w.pi+1 < len(w.pend) {
		w.pi++
		return
	}
	w.pend, w.pi = w.pend[:0], 0
	for {
		for w.bits == 0 {
			if w.ci+1 >= w.tab.n && !sc.refill() {
				w.at = len(sc.b)
				return
			}
			w.ci++
			w.bits = w.tab.found[w.ci].bits
		}
		c := &w.tab.found[w.ci]
		k := bits.TrailingZeros32(w.bits)
		w.bits &= w.bits - 1
		if p := c.at + k; sc.verify(p, c.buckets(k)) {
			w.at = p
			return
		}
		sc.cands++
	}
}

// refill looks up the blocks from next on until some has a candidate; it
// reports false at the end of the run.
func (sc *Scanner) refill() bool {
	w, b := &sc.w, sc.b
	w.ci, w.tab.n = -1, 0
	reach := 34 // how far past its start a block's lookup reads
	if sc.simd512 {
		reach = 66
	}
	for w.tab.n == 0 {
		switch {
		case w.next+winSize > len(b):
			return false
		case w.next+reach >= len(b):
			sc.tail(reach)
		default:
			w.next = sc.lookup(b, w.next)
		}
	}
	return true
}

// lookup runs the lookup that suits the windows on the blocks of b from i
// on, and returns the first block not looked up.
func (sc *Scanner) lookup(b []byte, i int) int {
	w := &sc.w
	switch {
	case sc.simd512 && w.narrow:
		return scan512Narrow(&w.tab, b, i)
	case sc.simd512:
		return scan512(&w.tab, b, i)
	case w.narrow:
		return scanAVX2Narrow(&w.tab, b, i)
	}
	return scanAVX2(&w.tab, b, i)
}

// tail looks up the end of the run, from next on, where a block's lookup
// would read past it (fewer than reach bytes are left): in one block of a
// copy padded with bytes from 0x80 on, which no window holds, so that no
// position whose window does not fit in the run is a candidate.
func (sc *Scanner) tail(reach int) {
	w := &sc.w
	n := copy(w.pad[:], sc.b[w.next:])
	for i := n; i < len(w.pad); i++ {
		w.pad[i] = 0x80
	}
	sc.lookup(w.pad[:reach+1], 0)
	for i := range w.tab.n {
		w.tab.found[i].at += w.next
	}
	w.next = len(sc.b)
}

// verify adds to pend the strings of the windows of buckets m that occur
// with their window at p, and reports whether there were any.
func (sc *Scanner) verify(p int, m uint16) bool {
	w, b := &sc.w, sc.b
	v := binary.LittleEndian.Uint32(b[p:])
	if h := filterHash(v); w.filter[h/64]&(1<<(h%64)) == 0 {
		return false
	}
	for ; m != 0; m &= m - 1 {
		bk := bits.TrailingZeros16(m)
		for _, i := range w.byBucket[w.bucket[bk]:w.bucket[bk+1]] {
			x := &w.wins[i]
			if v|x.fold != x.key {
				continue
			}
			x.hits++
			if !x.ends && (p+winSize >= len(b) || !x.after.has(b[p+winSize])) {
				continue
			}
			for _, e := range w.ents[x.from:x.to] {
				if sc.holdsAt(e, p) {
					w.pend = append(w.pend, e)
				}
			}
		}
	}
	return len(w.pend) > 0
}

// holdsAt reports whether e's string occurs with its window at p.
func (sc *Scanner) holdsAt(e went, p int) bool {
	return sc.occurs(&sc.set.lits[e.id], e.id, p-int(e.off))
}
