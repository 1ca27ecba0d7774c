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
	winSize   = 4
	maxWinOff = 16
)

// winFold marks the key of a window of a folded string that holds a letter.
const winFold = 1 << 31 // free: the bytes of a window are ASCII

// winIndex is the windows the strings of a Set hold, which the Scanners
// choose from.
type winIndex struct {
	keys  []uint32 // by window: its bytes as a little-endian word, winFold when folded
	count []int32  // by window: how many strings hold it
	of    []int32  // by string: where its windows start in ids and offs, plus an end
	ids   []int32  // the windows of each string
	offs  []int32  // where in the string each is
	// shared lists the windows that more than one string holds, and
	// strs their strings, from strOf[i] to strOf[i+1] for shared[i], with
	// where the window is in each.
	shared   []int32
	strOf    []int32
	strs     []went
	sharedOf []int32 // by window: its place in shared, -1 none
}

// windowKey is the key of the window of l at off.
func windowKey(l *lit, off int) uint32 {
	k := binary.LittleEndian.Uint32(l.text[off:])
	if !l.fold {
		return k
	}
	for _, c := range l.text[off : off+winSize] {
		if isLower(c) {
			return k | winFold
		}
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
	slots := make([]int32, 1<<max(bits.Len(uint(n)), 4)) // window id plus one, by hash
	mask := uint32(len(slots) - 1)
	x.keys, x.count = make([]uint32, 0, n), make([]int32, 0, n)
	last := make([]int32, 0, n) // by window: the string that last held it, plus one
	for i := range lits {
		l := &lits[i]
		x.of[i] = int32(len(x.ids))
		for off := 0; off+winSize <= len(l.text) && off < maxWinOff; off++ {
			if k := binary.LittleEndian.Uint32(l.text[off:]); k&0x80808080 != 0 {
				continue // scanAVX2 looks up ASCII only
			}
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
	x.sharedOf = make([]int32, len(x.keys))
	n = 0
	for id, c := range x.count {
		x.sharedOf[id] = -1
		if c > 1 {
			x.sharedOf[id] = int32(len(x.shared))
			x.shared = append(x.shared, int32(id))
			x.strOf = append(x.strOf, int32(n))
			n += int(c)
		}
	}
	x.strOf = append(x.strOf, int32(n))
	x.strs = make([]went, n)
	fill := slices.Clone(x.strOf)
	for s := range lits {
		for i := x.of[s]; i < x.of[s+1]; i++ {
			if j := x.sharedOf[x.ids[i]]; j >= 0 {
				x.strs[fill[j]] = went{id: int32(s), off: x.offs[i]}
				fill[j]++
			}
		}
	}
}

// numBuckets is how many buckets the windows go into.
const numBuckets = 16

// tables are the SIMD search's lookups, laid out as scanAVX2 reads them: for
// buckets 0 to 7 and then 8 to 15, for each byte of a window, the buckets by
// low nibble, then likewise by high nibble, each table twice (once for each
// 16-byte lane); then the blocks found with a candidate, n of them.
type tables struct {
	lo    [2][winSize][32]byte
	hi    [2][winSize][32]byte
	found [batch]cand
	n     int
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

// block looks up the 32 positions of b from i on into c in Go, as scanAVX2
// does, for the end of a run: a position whose window does not fit is no
// candidate.
func (t *tables) block(b []byte, i int, c *cand) {
	c.at, c.bits = i, 0
	for k := range 32 {
		for h := range 2 {
			m := byte(0)
			if i+k+winSize <= len(b) {
				m = 0xff
				for j := range winSize {
					x := b[i+k+j]
					m &= t.lo[h][j][x&15] & t.hi[h][j][x>>4]
					if x >= 0x80 {
						m = 0 // as VPSHUFB does
					}
				}
			}
			c.out[h][k] = m
			if m != 0 {
				c.bits |= 1 << k
			}
		}
	}
}

// windows is a Scanner's SIMD search: the windows chosen and where it is in
// the run.
type windows struct {
	on      bool    // the search is on: ready, and cheaper than the anchors
	ready   bool    // windows are chosen for the strings still searched for
	tried   bool    // windows were chosen once
	cost    float64 // what it costs, in occurrences per byte of text (see indexPass)
	narrow  bool    // the windows are in buckets 0 to 7 alone
	t       tables
	pick    []int32 // by string: the window chosen, in wins, -1 none
	pickOff []int32 // by string: where in it the window is
	wins    []win   // the windows chosen
	ents    []went  // the strings of each window
	// byBucket lists the windows of each bucket, from bucket[i] to
	// bucket[i+1].
	byBucket []int32
	bucket   [numBuckets + 1]int32
	// filter has the hashes of the windows chosen, in every case they
	// match: a candidate that is none of them is turned down at once.
	filter [filterSize / 64]uint64
	mark   []int32   // by shared window: its place in wins plus one
	heap   []ranked  // the shared windows, while covering
	live   []int32   // by shared window: the strings not yet covered that hold it
	est    []float64 // by shared window: how often it occurs, plus winCost
	order  []int32   // the windows, most frequent first, while filling buckets

	at   int    // the window position of the occurrences in pend; -1 not searched yet, len(b) none
	pend []went // the occurrences at at
	pi   int    // the one reported last
	ci   int    // the block of t.found being checked
	bits uint32 // its candidates not yet checked
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

// What the lookups of a run cost per byte of text, with 8 and with 16
// buckets, and each candidate they let through, in anchor occurrences
// found and checked, as the tuner counts its costs (see indexPass): an
// occurrence costs about as much as the lookup of 140 bytes in 8 buckets,
// or 85 in 16, or a candidate and a quarter. Measured, then leaning to the
// anchors where the two come close.
const (
	narrowPass = 1.0 / 140
	widePass   = 1.0 / 85
	candCost   = 0.8
)

// winCost is what one more window costs, in candidates per byte of text:
// the buckets it widens.
const winCost = 1.0 / 20000

// chooseWindows chooses the windows of the strings still searched for: a
// greedy cover, the window shared by the most strings not yet covered for
// how often it occurs in the text first, while one covers two or more; then
// each string left on the rarest window it holds. The windows then go into
// buckets, each where it adds the fewest candidates.
func (sc *Scanner) chooseWindows() (ok bool) {
	w := &sc.w
	if w.ready = false; !sc.simd || !sc.tuned && !sc.forceSIMD {
		return false // not on the first run: most commands print little
	}
	x := sc.set.windows()
	w.tried = true
	if w.pick == nil {
		w.pick = make([]int32, len(sc.set.lits))
		w.pickOff = make([]int32, len(sc.set.lits))
		w.mark = make([]int32, len(x.shared))
		w.live = make([]int32, len(x.shared))
		w.est = make([]float64, len(x.shared))
	}
	clear(w.mark)
	w.wins, w.ents = w.wins[:0], w.ents[:0]
	for i, id := range x.shared {
		w.live[i] = x.strOf[i+1] - x.strOf[i]
		w.est[i] = sc.winEst(x.keys[id]) + winCost
	}
	for id := range sc.set.lits {
		w.pick[id] = -1
		if sc.off[id] {
			sc.uncover(id)
		}
	}
	// The greedy cover, lazily: a window's ratio only falls as strings
	// are covered, so one that still tops the heap once brought up to
	// date is the best.
	w.heap = w.heap[:0]
	for i, n := range w.live {
		if n > 1 {
			w.heap = append(w.heap, ranked{float64(n) / w.est[i], int32(i)})
		}
	}
	w.heapify()
	for len(w.heap) > 0 {
		top := &w.heap[0]
		i := top.i
		if r := float64(w.live[i]) / w.est[i]; r < top.ratio {
			if w.live[i] < 2 {
				w.pop()
			} else {
				top.ratio = r
				w.down(0)
			}
			continue
		}
		if top.ratio < 1/winCost {
			break // the rest are cheaper on windows of their own
		}
		w.pop()
		wid := x.shared[i]
		w.wins = append(w.wins, newWin(x.keys[wid], w.est[i]-winCost))
		w.mark[i] = int32(len(w.wins))
		for _, e := range x.strs[x.strOf[i]:x.strOf[i+1]] {
			if w.pick[e.id] < 0 && !sc.off[e.id] {
				w.pick[e.id], w.pickOff[e.id] = int32(len(w.wins)-1), e.off
				sc.uncover(int(e.id))
			}
		}
	}
	for id := range sc.set.lits {
		if w.pick[id] >= 0 || sc.off[id] || x.of[id] == x.of[id+1] {
			continue
		}
		best, bestEst := int32(-1), 0.0
		for i := x.of[id]; i < x.of[id+1]; i++ {
			if e := sc.winEst(x.keys[x.ids[i]]); best < 0 || e < bestEst {
				best, bestEst = i, e
			}
		}
		wid := x.ids[best]
		if j := x.sharedOf[wid]; j < 0 || w.mark[j] == 0 {
			w.wins = append(w.wins, newWin(x.keys[wid], bestEst))
			if j >= 0 {
				w.mark[j] = int32(len(w.wins))
			}
			w.pick[id] = int32(len(w.wins) - 1)
		} else {
			w.pick[id] = w.mark[j] - 1
		}
		w.pickOff[id] = x.offs[best]
	}
	if len(w.wins) == 0 {
		return false
	}
	w.ready = true
	for i := range w.wins {
		w.wins[i].from, w.wins[i].to = 0, 0
	}
	for _, p := range w.pick {
		if p >= 0 {
			w.wins[p].to++
		}
	}
	n := int32(0)
	for i := range w.wins {
		w.wins[i].from, n = n, n+w.wins[i].to
		w.wins[i].to = w.wins[i].from
	}
	w.ents = slices.Grow(w.ents, int(n))[:n]
	for id, p := range w.pick {
		if p >= 0 {
			v := &w.wins[p]
			w.ents[v.to] = went{id: int32(id), off: w.pickOff[id]}
			v.to++
		}
	}
	sc.fillBuckets()
	return true
}

// ranked is a shared window in the cover's heap, by the ratio it had when
// last brought up to date.
type ranked struct {
	ratio float64
	i     int32
}

func (w *windows) heapify() {
	for i := len(w.heap)/2 - 1; i >= 0; i-- {
		w.down(i)
	}
}

func (w *windows) pop() {
	n := len(w.heap) - 1
	w.heap[0] = w.heap[n]
	w.heap = w.heap[:n]
	w.down(0)
}

// down restores the heap below i, the highest ratio first.
func (w *windows) down(i int) {
	h := w.heap
	for {
		c := 2*i + 1
		if c >= len(h) {
			return
		}
		if c+1 < len(h) && h[c+1].ratio > h[c].ratio {
			c++
		}
		if h[i].ratio >= h[c].ratio {
			return
		}
		h[i], h[c] = h[c], h[i]
		i = c
	}
}

// winEst is how often window k occurs, per byte of text: the count of its
// hash in the sample, blended with the guess from its bytes.
func (sc *Scanner) winEst(k uint32) float64 {
	ind := indepEst(&sc.t.est, k)
	tr := sc.t.grams
	if tr == nil {
		return ind
	}
	fold := 0
	if k&winFold != 0 {
		fold = 1
	}
	return (float64(tr.est[fold][gramHash(k&^winFold)]) + ind*priorWeight) / (float64(tr.estN) + priorWeight)
}

// indepEst is how often window k occurs, per byte of text, were its bytes
// independent.
func indepEst(est *[256]float64, k uint32) float64 {
	f := 1.0
	for j := range winSize {
		c := byte(k &^ winFold >> (8 * j))
		p := est[c]
		if k&winFold != 0 && isLower(c) {
			p += est[c-'a'+'A']
		}
		f *= p
	}
	return f
}

// newWin returns the window of key k, which occurs est times a byte.
func newWin(k uint32, est float64) win {
	v := win{key: k &^ winFold, est: est}
	for j := range winSize {
		c := byte(v.key >> (8 * j))
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

// fillBuckets puts the windows chosen into 8 buckets or 16, whichever
// costs less with their candidates, and fills the tables.
func (sc *Scanner) fillBuckets() {
	w := &sc.w
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
	// Up to 8 windows, each has a bucket of its own on the narrow lookup.
	narrow := narrowPass + sc.assign(8)*candCost
	w.narrow, w.cost = true, narrow
	if len(w.wins) > 8 {
		if wide := widePass + sc.assign(numBuckets)*candCost; wide < narrow {
			w.narrow, w.cost = false, wide
		} else {
			sc.assign(8)
		}
	}
	var lo, hi [numBuckets][winSize]uint16
	var count [numBuckets]int32
	for i := range w.wins {
		v := &w.wins[i]
		for j := range winSize {
			lo[v.bucket][j] |= v.lo[j]
			hi[v.bucket][j] |= v.hi[j]
		}
		count[v.bucket]++
	}
	for b := range numBuckets {
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
	for b := range numBuckets {
		h, bit := b/8, byte(1)<<(b%8)
		for j := range winSize {
			for l := range 16 {
				if lo[b][j]&(1<<l) != 0 {
					w.t.lo[h][j][l] |= bit
					w.t.lo[h][j][l+16] |= bit
				}
				if hi[b][j]&(1<<l) != 0 {
					w.t.hi[h][j][l] |= bit
					w.t.hi[h][j][l+16] |= bit
				}
			}
		}
	}
	w.filter = [filterSize / 64]uint64{}
	for i := range w.wins {
		w.addFilter(w.wins[i].key, w.wins[i].fold)
	}
}

// assign puts the windows into nb buckets, the most frequent first, each
// into the bucket whose candidates it adds the fewest to, and returns the
// candidates expected per byte of text, were the bytes independent.
func (sc *Scanner) assign(nb int) float64 {
	w, est := &sc.w, &sc.t.est
	var lo, hi [numBuckets][winSize]uint16
	var cand [numBuckets]float64
	total := 0.0
	for _, i := range w.order {
		v := &w.wins[i]
		best, bestAdd := 0, 0.0
		for b := range nb {
			p := 1.0
			for j := range winSize {
				p *= mass(est, lo[b][j]|v.lo[j], hi[b][j]|v.hi[j])
			}
			if add := p - cand[b]; b == 0 || add < bestAdd {
				best, bestAdd = b, add
			}
		}
		cand[best] += bestAdd
		total += bestAdd
		for j := range winSize {
			lo[best][j] |= v.lo[j]
			hi[best][j] |= v.hi[j]
		}
		v.bucket = int8(best)
	}
	return total
}

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
			if w.ci+1 >= w.t.n && !sc.refill() {
				w.at = len(sc.b)
				return
			}
			w.ci++
			w.bits = w.t.found[w.ci].bits
		}
		c := &w.t.found[w.ci]
		k := bits.TrailingZeros32(w.bits)
		w.bits &= w.bits - 1
		if p := c.at + k; sc.verify(p, c.buckets(k)) {
			w.at = p
			return
		}
	}
}

// refill looks up the blocks from next on until some has a candidate; it
// reports false at the end of the run.
func (sc *Scanner) refill() bool {
	w, b := &sc.w, sc.b
	w.ci, w.t.n = -1, 0
	for w.t.n == 0 {
		switch {
		case w.next+winSize > len(b):
			return false
		case w.next+34 >= len(b): // the end of the run, in Go
			if w.t.block(b, w.next, &w.t.found[0]); w.t.found[0].bits != 0 {
				w.t.n = 1
			}
			w.next += 32
		case w.narrow:
			w.next = scanAVX2Narrow(&w.t, b, w.next)
		default:
			w.next = scanAVX2(&w.t, b, w.next)
		}
	}
	return true
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

// filterSize is how many bits the filter of the windows holds.
const filterSize = 1 << 14

func filterHash(v uint32) uint32 { return (v * 0x9e3779b1) >> (32 - 14) }

// addFilter adds to the filter window key in every case fold lets it match.
func (w *windows) addFilter(key, fold uint32) {
	for c := uint32(0); c < 1<<winSize; c++ {
		var flip uint32
		for j := range winSize {
			if c&(1<<j) != 0 {
				flip |= 0x20 << (8 * j)
			}
		}
		if flip&^fold != 0 {
			continue
		}
		h := filterHash(key ^ flip)
		w.filter[h/64] |= 1 << (h % 64)
	}
}

// clone returns a copy of w that shares nothing with it.
func (w *windows) clone() windows {
	c := *w
	c.pick, c.pickOff = slices.Clone(w.pick), slices.Clone(w.pickOff)
	c.wins, c.ents = slices.Clone(w.wins), slices.Clone(w.ents)
	c.byBucket, c.order, c.heap = slices.Clone(w.byBucket), nil, nil
	c.mark = make([]int32, len(w.mark))
	c.live, c.est = make([]int32, len(w.live)), make([]float64, len(w.est))
	c.pend = nil
	return c
}

// uncover takes string id out of the counts of the shared windows it holds.
func (sc *Scanner) uncover(id int) {
	w, x := &sc.w, &sc.set.win // built: the Scanner chooses windows
	for i := x.of[id]; i < x.of[id+1]; i++ {
		if j := x.sharedOf[x.ids[i]]; j >= 0 {
			w.live[j]--
		}
	}
}
