package literal

import "slices"

// The choice of the SIMD search's windows: a greedy cover of the strings
// still searched for by the windows they hold, the window shared by the
// most strings not yet covered, for how often it occurs in the text, first,
// while one covers two strings or more; then each string left on the rarest
// window it holds. The windows then go into buckets (buckets.go).

// winCost is what one more window costs, in candidates per byte of text:
// the buckets it widens.
const winCost = 1.0 / 20000

// winCover is the workspace of the windows' cover, by shared window of the
// Set's winIndex.
type winCover struct {
	mark  []int32   // its place in wins plus one, 0 not chosen
	live  []int32   // the strings not yet covered that hold it
	est   []float64 // how often it occurs, plus winCost
	heap  []ranked  // the shared windows, while covering
	order []int32   // the windows, most frequent first, while filling buckets
}

// ranked is a shared window in the cover's heap, by the ratio it had when
// last brought up to date.
type ranked struct {
	ratio float64
	i     int32
}

// chooseWindows chooses the windows of the strings still searched for and
// their buckets, and reports whether some string has one.
func (sc *Scanner) chooseWindows() bool {
	if !sc.simd {
		return false
	}
	x := sc.set.windows()
	sc.startWindows(x)
	sc.coverShared(x)
	sc.pickRest(x)
	if len(sc.w.wins) == 0 {
		return false
	}
	sc.w.group()
	sc.fillBuckets()
	return true
}

// startWindows empties the windows chosen and counts, for each shared
// window, the strings still searched for that hold it.
func (sc *Scanner) startWindows(x *winIndex) {
	w, cov := &sc.w, &sc.w.cov
	if w.pick == nil {
		w.pick = make([]int32, len(sc.set.lits))
		w.pickOff = make([]int32, len(sc.set.lits))
	}
	if cov.live == nil { // a clone's picks come with no workspace
		cov.mark = make([]int32, len(x.shared))
		cov.live = make([]int32, len(x.shared))
		cov.est = make([]float64, len(x.shared))
	}
	clear(cov.mark)
	w.wins, w.ents = w.wins[:0], w.ents[:0]
	for i, id := range x.shared {
		cov.live[i] = x.strOf[i+1] - x.strOf[i]
		cov.est[i] = sc.winEst(x, id) + winCost
	}
	for id := range sc.set.lits {
		w.pick[id] = -1
		if sc.off[id] {
			sc.uncover(x, id)
		}
	}
}

// coverShared chooses shared windows, the one covering the most strings
// for how often it occurs first, while that is worth a window: the greedy
// cover, lazily, since a window's ratio only falls as strings are covered,
// so one that still tops the heap once brought up to date is the best.
func (sc *Scanner) coverShared(x *winIndex) {
	w, cov := &sc.w, &sc.w.cov
	cov.heap = cov.heap[:0]
	for i, n := range cov.live {
		if n > 1 {
			cov.heap = append(cov.heap, ranked{float64(n) / cov.est[i], int32(i)})
		}
	}
	cov.heapify()
	for len(cov.heap) > 0 {
		top := &cov.heap[0]
		i := top.i
		if r := float64(cov.live[i]) / cov.est[i]; r < top.ratio {
			if cov.live[i] < 2 {
				cov.pop()
			} else {
				top.ratio = r
				cov.down(0)
			}
			continue
		}
		if top.ratio < 1/winCost {
			break // the rest are cheaper on windows of their own
		}
		cov.pop()
		wid := x.shared[i]
		w.add(x, wid, cov.est[i]-winCost)
		cov.mark[i] = int32(len(w.wins))
		for _, e := range x.strs[x.strOf[i]:x.strOf[i+1]] {
			if w.pick[e.id] < 0 && !sc.off[e.id] {
				w.pick[e.id], w.pickOff[e.id] = int32(len(w.wins)-1), e.off
				sc.uncover(x, int(e.id))
			}
		}
	}
}

// pickRest puts each string still searched for that the cover left, and
// that holds a window, on the rarest window it holds.
func (sc *Scanner) pickRest(x *winIndex) {
	w, cov := &sc.w, &sc.w.cov
	for id := range sc.set.lits {
		if w.pick[id] >= 0 || sc.off[id] || x.of[id] == x.of[id+1] {
			continue
		}
		best, bestEst := int32(-1), 0.0
		for i := x.of[id]; i < x.of[id+1]; i++ {
			if e := sc.winEst(x, x.ids[i]); best < 0 || e < bestEst {
				best, bestEst = i, e
			}
		}
		wid := x.ids[best]
		if j := x.sharedOf[wid]; j < 0 || cov.mark[j] == 0 {
			w.add(x, wid, bestEst)
			if j >= 0 {
				cov.mark[j] = int32(len(w.wins))
			}
			w.pick[id] = int32(len(w.wins) - 1)
		} else {
			w.pick[id] = cov.mark[j] - 1
		}
		w.pickOff[id] = x.offs[best]
	}
}

// group lists the strings of each window chosen, in ents.
func (w *windows) group() {
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
}

func (cov *winCover) heapify() {
	for i := len(cov.heap)/2 - 1; i >= 0; i-- {
		cov.down(i)
	}
}

func (cov *winCover) pop() {
	n := len(cov.heap) - 1
	cov.heap[0] = cov.heap[n]
	cov.heap = cov.heap[:n]
	cov.down(0)
}

// down restores the heap below i, the highest ratio first.
func (cov *winCover) down(i int) {
	h := cov.heap
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

// add chooses window id of x, which occurs est times a byte.
func (w *windows) add(x *winIndex, id int32, est float64) {
	v := newWin(x.keys[id], est)
	v.id = id
	w.wins = append(w.wins, v)
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

// winEst is how often window id of x occurs, per byte of text: as the
// samples have it, or as often as it was seen matching when that is more.
func (sc *Scanner) winEst(x *winIndex, id int32) float64 {
	e := sc.tn.est.winEst(x.keys[id])
	if sc.w.seen != nil {
		e = max(e, float64(sc.w.seen[id]))
	}
	return e
}

// remember records, for each window chosen, how often it matched in the
// n bytes searched since the choice, where that was more than its
// estimate: a sample of one kind of text may show rare a window that
// another kind holds often ("pack" in the "packagefile" lines of a
// build's output), and the choices after it then know better.
func (w *windows) remember(x *winIndex, n int) {
	if !w.on || n == 0 {
		return
	}
	if w.seen == nil {
		w.seen = make([]float32, len(x.keys))
	}
	for i := range w.wins {
		v := &w.wins[i]
		if r := float64(v.hits) / float64(n); r > v.est {
			w.seen[v.id] = max(w.seen[v.id], float32(r))
		}
		v.hits = 0
	}
}

// uncover takes string id out of the counts of the shared windows it holds.
func (sc *Scanner) uncover(x *winIndex, id int) {
	for i := x.of[id]; i < x.of[id+1]; i++ {
		if j := x.sharedOf[x.ids[i]]; j >= 0 {
			sc.w.cov.live[j]--
		}
	}
}
