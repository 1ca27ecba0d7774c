package literal

import (
	"math/bits"
	"slices"
)

// What the lookups of a run cost per byte of text, with 8 and with 16
// buckets, and each candidate they let through, in anchor occurrences
// found and checked, as the tuner counts its costs (see indexPass): an
// occurrence costs about as much as the AVX2 lookup of 140 bytes in 8
// buckets, or 85 in 16, the AVX-512 one of 250 or 180, or a candidate and
// a quarter. Measured, then leaning to the anchors where the two come
// close.
const candCost = 0.8

// lookupCost is what a lookup costs per byte of text, with 8 buckets and
// with 16.
type lookupCost struct{ narrow, wide float64 }

// pass returns what sc's lookups cost.
func (sc *Scanner) pass() lookupCost {
	if sc.simd512 {
		return lookupCost{narrow: 1.0 / 250, wide: 1.0 / 180}
	}
	return lookupCost{narrow: 1.0 / 140, wide: 1.0 / 85}
}

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
	w.tried, w.wideOnly = true, false
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
	pass := sc.pass()
	narrow := pass.narrow + sc.assign(8)*candCost
	w.narrow, w.cost = true, narrow
	if len(w.wins) > 8 {
		if wide := pass.wide + sc.assign(numBuckets)*candCost; wide < narrow || w.wideOnly {
			w.narrow, w.cost = false, wide
		} else {
			sc.assign(8)
		}
	}
	sc.fillTables()
}

// checkNarrow moves the windows to 16 buckets when the 8 let through more
// candidates a byte on the run of n bytes just searched than the 16 would
// cost more (with few: see lookupCost): the estimates take the bytes as
// independent, and the candidates of text can be several times as many.
func (sc *Scanner) checkNarrow(n int) {
	w := &sc.w
	pass := sc.pass()
	limit := (pass.wide - pass.narrow) / candCost
	if w.on && w.narrow && len(w.wins) > 8 && n >= 16<<10 && float64(w.cands) > limit*float64(n) {
		w.wideOnly = true
		sc.assign(numBuckets)
		w.narrow = false
		sc.fillTables()
	}
	w.cands = 0
}

// fillTables fills the lookups from the windows' buckets.
func (sc *Scanner) fillTables() {
	w := &sc.w
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
	for i := range w.wins { // scan512's tables: the windows' own bytes
		v := &w.wins[i]
		h, bit := v.bucket/8, byte(1)<<(v.bucket%8)
		for j := range winSize {
			c, alt := v.byteAt(j)
			w.t.full[h][j][c] |= bit
			w.t.full[h][j][alt] |= bit
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
	if sc.simd512 {
		return sc.assignBytes(nb)
	}
	est := &sc.t.est
	var lo, hi [numBuckets][winSize]uint16
	return sc.w.greedy(nb, func(b int, v *win) float64 {
		p := 1.0
		for j := range winSize {
			p *= mass(est, lo[b][j]|v.lo[j], hi[b][j]|v.hi[j])
		}
		return p
	}, func(b int, v *win) {
		for j := range winSize {
			lo[b][j] |= v.lo[j]
			hi[b][j] |= v.hi[j]
		}
	})
}

// assignBytes is assign for the lookups by whole byte (scan512): at each
// byte of a window a bucket lets through the bytes its windows have there,
// not every byte whose nibbles some of them have.
func (sc *Scanner) assignBytes(nb int) float64 {
	est := &sc.t.est
	var set [numBuckets][winSize]byteSet
	var mass [numBuckets][winSize]float64
	return sc.w.greedy(nb, func(b int, v *win) float64 {
		p := 1.0
		for j := range winSize {
			p *= mass[b][j] + v.newMass(est, &set[b][j], j)
		}
		return p
	}, func(b int, v *win) {
		for j := range winSize {
			mass[b][j] += v.newMass(est, &set[b][j], j)
			c, alt := v.byteAt(j)
			set[b][j].add(c)
			set[b][j].add(alt)
		}
	})
}

// greedy puts the windows into nb buckets, the most frequent first, each
// into the bucket whose candidates it adds the fewest to: with, the
// candidates per byte of bucket b with v in it, and add, which puts v into
// b. It returns the candidates expected per byte of text.
func (w *windows) greedy(nb int, with func(b int, v *win) float64, add func(b int, v *win)) float64 {
	var cand [numBuckets]float64
	total := 0.0
	for _, i := range w.order {
		v := &w.wins[i]
		best, bestAdd := 0, 0.0
		for b := range nb {
			if more := with(b, v) - cand[b]; b == 0 || more < bestAdd {
				best, bestAdd = b, more
			}
		}
		cand[best] += bestAdd
		total += bestAdd
		add(best, v)
		v.bucket = int8(best)
	}
	return total
}

// byteAt returns the byte of v at j and its other case, or the byte twice.
func (v *win) byteAt(j int) (c, alt byte) {
	c = byte(v.key >> (8 * j))
	return c, c ^ byte(v.fold>>(8*j))
}

// newMass is the share of bytes of text that v has at j and s has not.
func (v *win) newMass(est *[256]float64, s *byteSet, j int) float64 {
	c, alt := v.byteAt(j)
	m := 0.0
	if !s.has(c) {
		m += est[c]
	}
	if alt != c && !s.has(alt) {
		m += est[alt]
	}
	return m
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

// uncover takes string id out of the counts of the shared windows it holds.
func (sc *Scanner) uncover(id int) {
	w, x := &sc.w, &sc.set.win // built: the Scanner chooses windows
	for i := x.of[id]; i < x.of[id+1]; i++ {
		if j := x.sharedOf[x.ids[i]]; j >= 0 {
			w.live[j]--
		}
	}
}
