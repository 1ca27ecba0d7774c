package literal

import "slices"

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
	w.tab = tables{}
	for b := range numBuckets {
		h, bit := b/8, byte(1)<<(b%8)
		for j := range winSize {
			for l := range 16 {
				if lo[b][j]&(1<<l) != 0 {
					w.tab.lo[h][j][l] |= bit
					w.tab.lo[h][j][l+16] |= bit
				}
				if hi[b][j]&(1<<l) != 0 {
					w.tab.hi[h][j][l] |= bit
					w.tab.hi[h][j][l+16] |= bit
				}
			}
		}
	}
	for i := range w.wins { // scan512's tables: the windows' own bytes
		v := &w.wins[i]
		h, bit := v.bucket/8, byte(1)<<(v.bucket%8)
		for j := range winSize {
			c, alt := v.byteAt(j)
			w.tab.full[h][j][c] |= bit
			w.tab.full[h][j][alt] |= bit
		}
	}
	w.filter = [filterSize / 64]uint64{}
	for i := range w.wins {
		w.addFilter(w.wins[i].key, w.wins[i].fold)
	}
	for i := range w.wins {
		sc.fillAfter(&w.wins[i])
	}
}

// fillAfter records the bytes v's strings hold right after it.
func (sc *Scanner) fillAfter(v *win) {
	v.after, v.ends = byteSet{}, false
	for _, e := range sc.w.ents[v.from:v.to] {
		l := &sc.set.lits[e.id]
		i := int(e.off) + winSize
		if i >= len(l.text) {
			v.ends = true
			return
		}
		c := l.text[i]
		v.after.add(c)
		if l.fold && isLower(c) {
			v.after.add(c - 'a' + 'A')
		}
	}
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
