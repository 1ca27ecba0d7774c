package literal

import (
	"math/bits"
	"slices"
)

// candCost is what a candidate of the lookups costs, in anchor occurrences
// (see passCost): one the filter of the windows turns down costs about
// half an occurrence, a window's match whose strings do not follow about
// one (BenchmarkCosts: candidate and match against occurrence).
const candCost = 0.8

// lookupCost returns what sc's lookup costs per byte of text, with 8
// buckets (narrow) or 16, in anchor occurrences (BenchmarkCosts: lookup
// against occurrence).
func (sc *Scanner) lookupCost(narrow bool) float64 {
	switch {
	case sc.simd512 && narrow:
		return 1.0 / 460
	case sc.simd512:
		return 1.0 / 240
	case narrow:
		return 1.0 / 190
	}
	return 1.0 / 110
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
	order := w.cov.order[:0]
	for i := range w.wins {
		order = append(order, int32(i))
	}
	w.cov.order = order
	slices.SortFunc(order, func(a, b int32) int {
		if x, y := w.wins[a].est, w.wins[b].est; x != y {
			if x > y {
				return -1
			}
			return 1
		}
		return int(a - b)
	})
	// Up to 8 windows, each has a bucket of its own on the narrow lookup.
	// The 16 buckets are weighed first as assignBytes fills them quickly,
	// and filled again with the sample's text when they are taken.
	var s *sim
	if sc.simd512 {
		s = w.trial(sc.tn.est.smp)
	}
	wide := 0.0
	if len(w.wins) > 8 {
		wide = sc.lookupCost(false) + sc.assign(numBuckets, s, false)*candCost
	}
	w.narrow, w.cands = true, sc.assign(8, s, true)
	w.cost = sc.lookupCost(true) + w.cands*candCost
	if len(w.wins) > 8 && wide < w.cost {
		w.narrow, w.cands = false, sc.assign(numBuckets, s, true)
		w.cost = sc.lookupCost(false) + w.cands*candCost
	}
	sc.fillTables()
}

// assign puts the windows into nb buckets, the most frequent first, each
// into the bucket whose candidates it adds the fewest to, and returns the
// candidates expected per byte of text, were the bytes independent; with
// the trials s, assignBytes counts them on text too, at each placing with
// refine.
func (sc *Scanner) assign(nb int, s *sim, refine bool) float64 {
	if sc.simd512 {
		return sc.assignBytes(nb, s, refine)
	}
	est := &sc.tn.est.bytes
	var lo, hi [numBuckets][winSize]uint16
	return sc.w.greedy(nb, func(b int, v *win) float64 {
		p := 1.0
		for j := range winSize {
			p *= mass(est, lo[b][j]|v.lo[j], hi[b][j]|v.hi[j])
		}
		return p
	}, nil, func(b int, v *win) {
		for j := range winSize {
			lo[b][j] |= v.lo[j]
			hi[b][j] |= v.hi[j]
		}
	})
}

// assignBytes is assign for the lookups by whole byte (scan512): at each
// byte of a window a bucket lets through the bytes its windows have there,
// not every byte whose nibbles some of them have. With the trials s, on
// the sample's text, the candidates are also counted there (sim.go) and
// the two blended: at each placing with refine, else once the buckets are
// filled, which costs a tenth as much.
func (sc *Scanner) assignBytes(nb int, s *sim, refine bool) float64 {
	est := &sc.tn.est.bytes
	var set [numBuckets][winSize]byteSet
	var mass [numBuckets][winSize]float64
	if s == nil {
		refine = false
	} else {
		s.start()
	}
	blend := func(count int, p float64) float64 {
		return (float64(count) + p*priorWeight) / (float64(s.n) + priorWeight)
	}
	var weigh func(b int, v *win, p float64) float64
	if refine {
		weigh = func(b int, v *win, p float64) float64 {
			s.place(v)
			return blend(s.with(b), p)
		}
	}
	total := sc.w.greedy(nb, func(b int, v *win) float64 {
		p := 1.0
		for j := range winSize {
			p *= mass[b][j] + v.newMass(est, &set[b][j], j)
		}
		return p
	}, weigh, func(b int, v *win) {
		for j := range winSize {
			mass[b][j] += v.newMass(est, &set[b][j], j)
			c, alt := v.byteAt(j)
			set[b][j].add(c)
			set[b][j].add(alt)
		}
		if s != nil {
			s.place(v)
			s.add(b)
		}
	})
	if s != nil && !refine {
		total = blend(s.count(), total)
	}
	return total
}

// trial returns w's trials of the lookups, loaded with the text smp kept,
// or nil when it kept too little.
func (w *windows) trial(smp *sample) *sim {
	if smp == nil || smp.textN < winSample {
		return nil
	}
	if w.sim == nil {
		w.sim = new(sim)
	}
	w.sim.load(smp.text[:smp.textN])
	return w.sim
}

// greedy puts the windows into nb buckets, the most frequent first, each
// into the bucket whose candidates it adds the fewest to: with, the
// candidates per byte of bucket b with v in it, and add, which puts v into
// b. With refine, the refineTop buckets that with finds best for a window
// are weighed again, refine(b, v, with's figure), and the best of those
// taken. It returns the candidates expected per byte of text, refine's
// where it weighed.
func (w *windows) greedy(nb int, with func(b int, v *win) float64, refine func(b int, v *win, p float64) float64, add func(b int, v *win)) float64 {
	var cand, fine [numBuckets]float64 // by bucket: with's candidates, and refine's
	total := 0.0
	for _, i := range w.cov.order {
		v := &w.wins[i]
		var more [numBuckets]float64
		best := 0
		for b := range nb {
			more[b] = with(b, v) - cand[b]
			if more[b] < more[best] {
				best = b
			}
		}
		inc := more[best]
		if refine != nil {
			best = -1
			for _, b := range fewest(more[:nb], refineTop) {
				if m := refine(b, v, cand[b]+more[b]) - fine[b]; best < 0 || m < inc {
					best, inc = b, m
				}
			}
		}
		cand[best] += more[best]
		fine[best] += inc
		total += inc
		add(best, v)
		v.bucket = int8(best)
	}
	return total
}

// refineTop is how many buckets refine weighs for each window (see greedy).
const refineTop = 3

// fewest returns the indexes of the n smallest of x, in order.
func fewest(x []float64, n int) []int {
	var idx [numBuckets]int
	k := 0
	for i := range x {
		j := k
		if k < n {
			k++
		} else if x[i] >= x[idx[n-1]] {
			continue
		} else {
			j = n - 1
		}
		for ; j > 0 && x[idx[j-1]] > x[i]; j-- {
			idx[j] = idx[j-1]
		}
		idx[j] = i
	}
	return idx[:k]
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
