package literal

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// The SIMD search (where the processor has one: haveSIMD) finds every
// string of three bytes or more through a window of three of its bytes,
// anywhere in it, looked up for 32 positions of the text at a time as in
// the Teddy searcher: each window is in one of 8 buckets, and a position
// is a candidate for a bucket when each of its three bytes has its low and
// its high nibble in the bucket's tables for that byte. The windows are
// chosen, like the anchors, from the bytes of the text seen; the strings of
// a candidate's buckets are then compared.

// winSize is how many bytes a window holds; maxWinOff bounds the offsets
// in a string where its windows are taken.
const (
	winSize   = 3
	maxWinOff = 64
)

// winFold marks the key of a window of a folded string that holds a letter.
const winFold = 1 << 31

// winIndex is the windows the strings of a Set hold, which the Scanners
// choose from.
type winIndex struct {
	keys  []uint32 // by window: its bytes as a little-endian word, winFold when folded
	count []int32  // by window: how many strings hold it
	of    []int32  // by string: where its windows start in ids and offs, plus an end
	ids   []int32  // the windows of each string
	offs  []int32  // where in the string each is
}

// windowKey is the key of the window of l at off.
func windowKey(l *lit, off int) uint32 {
	t := l.text[off : off+winSize]
	k := uint32(t[0]) | uint32(t[1])<<8 | uint32(t[2])<<16
	if l.fold && (isLower(t[0]) || isLower(t[1]) || isLower(t[2])) {
		k |= winFold
	}
	return k
}

func isLower(c byte) bool { return 'a' <= c && c <= 'z' }

// index builds the windows of s's strings.
func (x *winIndex) index(lits []lit) {
	n := 0
	for i := range lits {
		if m := len(lits[i].text) - winSize + 1; m > 0 {
			n += min(m, maxWinOff)
		}
	}
	x.of = make([]int32, len(lits)+1)
	x.ids = make([]int32, 0, n)
	x.offs = make([]int32, 0, n)
	slots := make([]int32, 1<<max(bits.Len(uint(2*n)), 4)) // window id plus one, by hash
	mask := uint32(len(slots) - 1)
	var last []int32 // by window: the string that last held it, plus one
	for i := range lits {
		l := &lits[i]
		x.of[i] = int32(len(x.ids))
		for off := 0; off+winSize <= len(l.text) && off < maxWinOff; off++ {
			k := windowKey(l, off)
			h := (k * 0x9e3779b1) >> 7 & mask
			for slots[h] != 0 && x.keys[slots[h]-1] != k {
				h = (h + 1) & mask
			}
			if slots[h] == 0 {
				x.keys = append(x.keys, k)
				x.count = append(x.count, 0)
				last = append(last, 0)
				slots[h] = int32(len(x.keys))
			}
			id := slots[h] - 1
			if last[id] == int32(i+1) {
				continue
			}
			last[id] = int32(i + 1)
			x.count[id]++
			x.ids = append(x.ids, id)
			x.offs = append(x.offs, int32(off))
		}
	}
	x.of[len(lits)] = int32(len(x.ids))
}

// tables are the SIMD search's lookups, laid out as scanAVX2 reads them: for
// each byte of a window, the buckets by low nibble and by high nibble, each
// table twice (one for each 16-byte lane); then the buckets of the block
// found and its candidate positions.
type tables struct {
	lo   [winSize][32]byte
	hi   [winSize][32]byte
	out  [32]byte
	bits uint32
}

// block looks up the 32 positions of b from i on in Go, as scanAVX2 does,
// for the end of a run: a position whose window does not fit is no
// candidate.
func (t *tables) block(b []byte, i int) {
	t.bits = 0
	for k := 0; k < 32 && i+k+winSize <= len(b); k++ {
		m := byte(0xff)
		for j := range winSize {
			c := b[i+k+j]
			m &= t.lo[j][c&15] & t.hi[j][c>>4]
		}
		t.out[k] = m
		if m != 0 {
			t.bits |= 1 << k
		}
	}
}

// windows is a Scanner's SIMD search: the windows chosen and where it is in
// the run.
type windows struct {
	on   bool
	t    tables
	pick []int32 // by string: the window chosen, as an index into its windows; -1 none
	wins []win   // the windows chosen
	ents []went  // the strings of each window
	// byBucket lists the windows of each bucket, from bucket[i] to
	// bucket[i+1].
	byBucket []int32
	bucket   [9]int32
	mark     []int32 // by window of the index: its place in wins plus one
	order    []int32 // the windows, most frequent first, while filling buckets

	at   int    // the window position of the occurrences in pend; -1 not searched yet, len(b) none
	pend []went // the occurrences at at
	pi   int    // the one reported last
	blk  int    // the block whose candidates t holds
	next int    // the next block to look up
}

// win is a window chosen: its bytes, the bits that fold them (0x20 on the
// letters of a folded one) and its strings, ents[from:to].
type win struct {
	key, fold uint32
	from, to  int32
	est       float64
	lo, hi    [winSize]uint16 // the nibbles of its bytes, as bit sets
	bucket    int8
}

// went is a string found through a window: the window is off bytes after
// the string's start.
type went struct{ id, off int32 }

// covers reports whether string id is searched through a window.
func (w *windows) covers(id int) bool { return w.on && w.pick[id] >= 0 }

// winCost is what one more window costs, in candidates per byte of text:
// the buckets it widens.
const winCost = 1.0 / 20000

// chooseWindows chooses the windows of the strings still searched for: each
// string takes the window it holds that is rarest in the text for the
// strings that share it, so that families of strings share their
// windows; then the windows go into buckets, each where it adds the fewest
// candidates.
func (sc *Scanner) chooseWindows() {
	w, x := &sc.w, &sc.set.win
	w.on = false
	if !sc.simd {
		return
	}
	if w.pick == nil {
		w.pick = make([]int32, len(sc.set.lits))
		w.mark = make([]int32, len(x.keys))
	}
	clear(w.mark)
	w.wins, w.ents = w.wins[:0], w.ents[:0]
	est := &sc.t.est
	for id := range sc.set.lits {
		w.pick[id] = -1
		if sc.off[id] || x.of[id] == x.of[id+1] {
			continue
		}
		best, bestScore := -1, 0.0
		for i := x.of[id]; i < x.of[id+1]; i++ {
			s := (winEst(est, x.keys[x.ids[i]]) + winCost) / float64(x.count[x.ids[i]])
			if best < 0 || s < bestScore {
				best, bestScore = int(i-x.of[id]), s
			}
		}
		w.pick[id] = int32(best)
		wid := x.ids[int(x.of[id])+best]
		if w.mark[wid] == 0 {
			w.wins = append(w.wins, newWin(est, x.keys[wid]))
			w.mark[wid] = int32(len(w.wins))
		}
		w.wins[w.mark[wid]-1].to++ // counted here, placed below
	}
	if len(w.wins) == 0 {
		return
	}
	w.on = true
	n := int32(0)
	for i := range w.wins {
		w.wins[i].from, n = n, n+w.wins[i].to
		w.wins[i].to = w.wins[i].from
	}
	w.ents = slices.Grow(w.ents, int(n))[:n]
	for id, p := range w.pick {
		if p < 0 {
			continue
		}
		i := int(x.of[id]) + int(p)
		v := &w.wins[w.mark[x.ids[i]]-1]
		w.ents[v.to] = went{id: int32(id), off: x.offs[i]}
		v.to++
	}
	sc.fillBuckets()
}

// winEst is how often window k occurs, per byte of text, were its bytes
// independent.
func winEst(est *[256]float64, k uint32) float64 {
	f := 1.0
	for j := range winSize {
		c := byte(k >> (8 * j))
		p := est[c]
		if k&winFold != 0 && isLower(c) {
			p += est[c-'a'+'A']
		}
		f *= p
	}
	return f
}

// newWin returns the window of key k.
func newWin(est *[256]float64, k uint32) win {
	v := win{key: k &^ winFold, est: winEst(est, k)}
	for j := range winSize {
		c := byte(k >> (8 * j))
		v.lo[j] |= 1 << (c & 15)
		v.hi[j] |= 1 << (c >> 4)
		if k&winFold != 0 && isLower(c) {
			v.fold |= 0x20 << (8 * j)
			v.hi[j] |= 1 << ((c - 'a' + 'A') >> 4)
		}
	}
	return v
}

// mass is the share of bytes of text whose nibbles are in lo and hi.
func mass(est *[256]float64, lo, hi uint16) float64 {
	m := 0.0
	for h := hi; h != 0; h &= h - 1 {
		row := bits.TrailingZeros16(h) << 4
		for l := lo; l != 0; l &= l - 1 {
			m += est[row|bits.TrailingZeros16(l)]
		}
	}
	return m
}

// fillBuckets puts the windows chosen into buckets, the most frequent
// first, each into the bucket whose candidates it adds the fewest to, and
// fills the tables.
func (sc *Scanner) fillBuckets() {
	w, est := &sc.w, &sc.t.est
	w.order = w.order[:0]
	for i := range w.wins {
		w.order = append(w.order, int32(i))
	}
	slices.SortFunc(w.order, func(a, b int32) int {
		if x, y := w.wins[a].est, w.wins[b].est; x != y {
			if x > y {
				return -1
			}
			return 1
		}
		return int(a - b)
	})
	var lo, hi [8][winSize]uint16
	var cand [8]float64
	var count [8]int32
	for _, i := range w.order {
		v := &w.wins[i]
		best, bestAdd := 0, 0.0
		for b := range 8 {
			p := 1.0
			for j := range winSize {
				p *= mass(est, lo[b][j]|v.lo[j], hi[b][j]|v.hi[j])
			}
			if add := p - cand[b]; b == 0 || add < bestAdd {
				best, bestAdd = b, add
			}
		}
		cand[best] += bestAdd
		for j := range winSize {
			lo[best][j] |= v.lo[j]
			hi[best][j] |= v.hi[j]
		}
		v.bucket = int8(best)
		count[best]++
	}
	for b := range 8 {
		w.bucket[b+1] = w.bucket[b] + count[b]
		count[b] = w.bucket[b]
	}
	w.byBucket = slices.Grow(w.byBucket[:0], len(w.wins))[:len(w.wins)]
	for i := range w.wins {
		b := w.wins[i].bucket
		w.byBucket[count[b]] = int32(i)
		count[b]++
	}
	w.t = tables{}
	for b := range 8 {
		for j := range winSize {
			for l := range 16 {
				if lo[b][j]&(1<<l) != 0 {
					w.t.lo[j][l] |= 1 << b
					w.t.lo[j][l+16] |= 1 << b
				}
				if hi[b][j]&(1<<l) != 0 {
					w.t.hi[j][l] |= 1 << b
					w.t.hi[j][l+16] |= 1 << b
				}
			}
		}
	}
}

// wnext moves the SIMD search on to its next occurrence.
func (sc *Scanner) wnext() {
	w, b := &sc.w, sc.b
	if w.pi+1 < len(w.pend) {
		w.pi++
		return
	}
	w.pend, w.pi = w.pend[:0], 0
	for {
		for w.t.bits == 0 {
			if w.next+winSize > len(b) {
				w.at = len(b)
				return
			}
			w.blk = w.next
			if w.blk+33 < len(b) {
				w.blk = scanAVX2(&w.t, b, w.blk)
			}
			if w.t.bits == 0 {
				w.t.block(b, w.blk) // the end of the run
			}
			w.next = w.blk + 32
		}
		k := bits.TrailingZeros32(w.t.bits)
		w.t.bits &= w.t.bits - 1
		p := w.blk + k
		sc.verify(p, w.t.out[k])
		if len(w.pend) > 0 {
			w.at = p
			return
		}
	}
}

// verify adds to pend the strings of the windows of buckets m that occur
// with their window at p.
func (sc *Scanner) verify(p int, m byte) {
	w, b := &sc.w, sc.b
	v := uint32(b[p]) | uint32(b[p+1])<<8 | uint32(b[p+2])<<16
	for ; m != 0; m &= m - 1 {
		bk := bits.TrailingZeros8(m)
		for _, i := range w.byBucket[w.bucket[bk]:w.bucket[bk+1]] {
			x := &w.wins[i]
			if v|x.fold != x.key {
				continue
			}
			for _, e := range w.ents[x.from:x.to] {
				if sc.holdsAt(e, p) {
					w.pend = append(w.pend, e)
				}
			}
		}
	}
}

// holdsAt reports whether e's string occurs with its window at p.
func (sc *Scanner) holdsAt(e went, p int) bool {
	l := &sc.set.lits[e.id]
	s := p - int(e.off)
	if s < 0 || s+len(l.text) > len(sc.b) || sc.off[e.id] {
		return false
	}
	if l.head8 && binary.LittleEndian.Uint64(sc.b[s:])|l.mask != l.head {
		return false
	}
	return l.at(sc.b, s)
}

// clone returns a copy of w that shares nothing with it.
func (w *windows) clone() windows {
	c := *w
	c.pick, c.wins, c.ents = slices.Clone(w.pick), slices.Clone(w.wins), slices.Clone(w.ents)
	c.byBucket, c.order = slices.Clone(w.byBucket), nil
	c.mark = make([]int32, len(w.mark))
	c.pend = nil
	return c
}
