package literal

import "slices"

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
	w.tried, w.refilled = true, false
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
// hash in the sample, blended with the guess from its bytes, or how often
// it was seen matching when that is more (hits.go).
func (sc *Scanner) winEst(k uint32) float64 {
	e := indepEst(&sc.t.est, k)
	if tr := sc.t.grams; tr != nil {
		fold := 0
		if k&winFold != 0 {
			fold = 1
		}
		e = (float64(tr.est[fold][gramHash(k&^winFold)]) + e*priorWeight) / (float64(tr.estN) + priorWeight)
	}
	return max(e, sc.w.seen(k))
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

// uncover takes string id out of the counts of the shared windows it holds.
func (sc *Scanner) uncover(id int) {
	w, x := &sc.w, &sc.set.win // built: the Scanner chooses windows
	for i := x.of[id]; i < x.of[id+1]; i++ {
		if j := x.sharedOf[x.ids[i]]; j >= 0 {
			w.live[j]--
		}
	}
}
