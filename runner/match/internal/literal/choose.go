package literal

// The choice of a Scanner's search: which strings the SIMD search takes,
// through which windows and buckets, and on which anchor bytes the others
// are found. The anchors are a greedy cover of the strings by the keys
// they hold (cover); the windows another (choosewin.go); each costs what
// its lookups and candidates would cost on the text seen, and the SIMD
// search takes its strings when it costs less.

// Costs are counted in anchor occurrences turned down, per byte of text.
// passCost is what an IndexByte pass over the text costs: about as much as
// an occurrence every 1100 bytes (BenchmarkCosts: indexbyte against
// occurrence); the anchors are weighed against the SIMD search at that.
// The cover charges anchorCost for one more anchor byte: its pass, and its
// place in the merge of the anchors' occurrences (Next), which the pass
// alone leaves out (BenchmarkMatcherCorpus with -tags purego).
const (
	passCost   = 1.0 / 1100
	anchorCost = 1.0 / 300
)

// An anchor key is what a string is anchored on: a byte value, or for a
// folded string one of the 26 letters, which stands for both its bytes.
const numKeys = 256 + 26

func keyOf(c byte, fold bool) int {
	if fold {
		return int(foldKey[c])
	}
	return int(c)
}

// foldKey is the key of each byte of a folded string.
var foldKey = func() (t [256]uint16) {
	for c := range t {
		t[c] = uint16(c)
		if l := lower[c]; 'a' <= l && l <= 'z' {
			t[c] = 256 + uint16(l-'a')
		}
	}
	return t
}()

// keyBytes returns the byte values of key k.
func keyBytes(k int) []byte {
	if k < 256 {
		return []byte{byte(k)}
	}
	return []byte{byte('a' + k - 256), byte('A' + k - 256)}
}

// cover is the workspace of the anchors' cover. Its tables live in the
// Scanner so that choosing again allocates nothing.
type cover struct {
	count   [numKeys]int32 // by key: the strings not yet covered that hold it
	chosen  [numKeys]bool
	covered []bool    // by string
	planned [256]bool // the byte is searched for a key chosen
	picks   []pick    // the strings anchored
}

// pick is a string anchored on a key, off bytes after its start.
type pick struct {
	id, off int32
	key     int16
}

// choose chooses sc's search from the sample gathered, for the strings
// still searched for: the SIMD search takes the strings it can when it
// costs less than the anchors they would need.
func (sc *Scanner) choose() {
	tn := &sc.tn
	tn.est.learn(tn.smp)
	if sc.simd {
		sc.w.remember(sc.set.windows(), tn.bytes)
	}
	sc.w.on = false
	occ, passes := sc.cover()
	tn.expect = occ
	if sc.chooseWindows() && (sc.w.cost < occ+passes || sc.forceSIMD) {
		sc.w.on = true
		occ, _ = sc.cover()
		tn.expect = occ + sc.w.cands
	}
	sc.a.place(sc.set.lits, sc.pickAll())
	tn.fromText, tn.sampling, tn.excess, tn.bytes, tn.chosenLive = true, false, 0, 0, sc.live
	tn.choices++
}

// chooseFirst anchors each string still searched for on its first byte
// (lit.first), for the first runs: it needs no keys and no cover. The
// Scanners of a Set share these anchors, placed once.
func (sc *Scanner) chooseFirst() {
	if sc.live < sc.set.live {
		sc.a.place(sc.set.lits, sc.firstPicks())
		return
	}
	placed := false
	sc.set.firstOnce.Do(func() {
		sc.a.place(sc.set.lits, sc.firstPicks())
		sc.set.firstAnchors, placed = sc.a.snapshot(), true
	})
	if !placed {
		sc.a.restore(&sc.set.firstAnchors)
	}
}

// firstPicks anchors each string still searched for on its first byte.
func (sc *Scanner) firstPicks() []pick {
	cov := &sc.tn.cov
	cov.picks = cov.picks[:0]
	for id, l := range sc.set.lits {
		if !sc.off[id] {
			cov.picks = append(cov.picks, pick{id: int32(id), off: l.first, key: int16(keyOf(l.text[l.first], l.fold))})
		}
	}
	return cov.picks
}

// cover chooses the anchor keys of the strings still searched for that the
// SIMD search does not take: a greedy cover of the strings by keys, the key
// that covers most strings for what its occurrences and passes cost first.
// It returns what they cost: their occurrences per byte of text, and their
// passes at passCost each.
func (sc *Scanner) cover() (occ, passes float64) {
	sc.set.keyIndex()
	cov, est := &sc.tn.cov, &sc.tn.est.bytes
	cov.count = [numKeys]int32{}
	cov.chosen = [numKeys]bool{}
	left := 0
	for id := range sc.set.lits {
		cov.covered[id] = sc.off[id] || sc.w.covers(id)
		if !cov.covered[id] {
			left++
			for _, k := range sc.set.keys[id] {
				cov.count[k]++
			}
		}
	}
	for left > 0 {
		best, bestRatio := -1, 0.0
		for k, n := range cov.count {
			if n == 0 || cov.chosen[k] {
				continue
			}
			if r := float64(n) / cov.cost(est, k); r > bestRatio {
				best, bestRatio = k, r
			}
		}
		occ += keyFreq(est, best)
		cov.chosen[best] = true
		for _, c := range keyBytes(best) {
			if !cov.planned[c] {
				cov.planned[c] = true
				passes += passCost
			}
		}
		for _, id := range sc.set.byKey[best] {
			if !cov.covered[id] {
				cov.covered[id] = true
				left--
				for _, k := range sc.set.keys[id] {
					cov.count[k]--
				}
			}
		}
	}
	cov.planned = [256]bool{}
	return occ, passes
}

// keyFreq is how often key k occurs, per byte of text.
func keyFreq(est *[256]float64, k int) float64 {
	if k < 256 {
		return est[k]
	}
	return est['a'+k-256] + est['A'+k-256]
}

// cost is what anchoring on key k costs: its occurrences and the passes of
// bytes not yet searched.
func (cov *cover) cost(est *[256]float64, k int) float64 {
	c := keyFreq(est, k)
	for _, b := range keyBytes(k) {
		if !cov.planned[b] {
			c += anchorCost
		}
	}
	return c
}

// pickAll returns the strings still searched for that the SIMD search does
// not take, each on the rarest key of the cover it holds.
func (sc *Scanner) pickAll() []pick {
	cov, est := &sc.tn.cov, &sc.tn.est.bytes
	cov.picks = cov.picks[:0]
	for id, l := range sc.set.lits {
		if sc.off[id] || sc.w.covers(id) {
			continue
		}
		best, bestFreq := -1, 0.0
		for _, k := range sc.set.keys[id] {
			if !cov.chosen[k] {
				continue
			}
			if f := keyFreq(est, int(k)); best < 0 || f < bestFreq {
				best, bestFreq = int(k), f
			}
		}
		off := 0
		for keyOf(l.text[off], l.fold) != best {
			off++
		}
		cov.picks = append(cov.picks, pick{id: int32(id), off: int32(off), key: int16(best)})
	}
	return cov.picks
}
