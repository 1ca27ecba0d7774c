package literal

import (
	"encoding/binary"
	"math/bits"
	"slices"
)

// The SIMD search (amd64 with AVX2: simd) finds a string of four ASCII
// bytes or more through a window of four of its bytes, taken anywhere in
// its first 16, looked up for 32 positions of the text at a time as the
// Teddy searcher does: each window is in one of 8 or 16 buckets, and a
// position is a candidate for a bucket when each of its four bytes has its
// low and its high nibble in the bucket's tables for that byte
// (choosewin.go chooses the windows, buckets.go their buckets, weighed on
// text in sim.go, fill.go fills the tables, lookup.go and lookup_amd64.s
// look up); with AVX-512 (simd too), 64 positions at a time, each byte
// whole in a table of the windows' own bytes (lookup512_amd64.s). A candidate is turned down on a bitmap of the
// windows, else its buckets' windows are compared, then the byte after the
// window, and their strings checked as the anchors' are.

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
	keys []uint32 // by window: its bytes as a little-endian word, winFold when folded
	of   []int32  // by string: where its windows start in ids and offs, plus an end
	ids  []int32  // the windows of each string
	offs []int32  // where in the string each is
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
	x.keys = make([]uint32, 0, n)
	count := make([]int32, 0, n) // by window: how many strings hold it
	last := make([]int32, 0, n)  // by window: the string that last held it, plus one
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
				count = append(count, 0)
				last = append(last, 0)
				slots[h] = int32(len(x.keys))
			}
			id := slots[h] - 1
			if last[id] == int32(i+1) {
				continue
			}
			last[id] = int32(i + 1)
			count[id]++
			x.ids = append(x.ids, id)
			x.offs = append(x.offs, int32(off))
		}
	}
	x.of[len(lits)] = int32(len(x.ids))
	x.sharedOf = make([]int32, len(x.keys))
	n = 0
	for id, c := range count {
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

// windows is a Scanner's SIMD search: the windows chosen, their buckets and
// tables, and where the search is in the run.
type windows struct {
	on      bool    // the search is on: chosen, and cheaper than the anchors
	narrow  bool    // the windows are in buckets 0 to 7 alone
	cost    float64 // what it costs, in occurrences per byte of text (see passCost)
	cands   float64 // the candidates it lets through, per byte of text, as estimated
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
	tab    tables
	cov    winCover // the choice's workspace
	// seen is, by window of the Set's winIndex, the most matches a byte
	// it was seen to have while chosen, where more than estimated
	// (remember); nil before any.
	seen []float32
	sim  *sim // the buckets tried on text, while filling them; nil before

	at   int      // the window position of the occurrences in pend; -1 not searched yet, len(b) none
	pend []went   // the occurrences at at
	pi   int      // the one reported last
	ci   int      // the block of tab.found being checked
	bits uint32   // its candidates not yet checked
	next int      // the next block to look up
	pad  [67]byte // the end of the run, padded for one block's lookup (tail)
}

// win is a window chosen: its bytes, the bits that fold them (0x20 on the
// letters of a folded one) and its strings, ents[from:to].
type win struct {
	key, fold uint32
	from, to  int32
	est       float64
	lo, hi    [winSize]uint16 // the nibbles of its bytes, as bit sets
	bucket    int8
	// after has the bytes its strings hold right after it, in each case
	// a folded one matches, unless ends: some string ends with it.
	after byteSet
	ends  bool
	id    int32 // in the Set's winIndex
	hits  int32 // its matches since it was chosen
}

// went is a string found through a window: the window is off bytes after
// the string's start.
type went struct{ id, off int32 }

// covers reports whether string id is searched through a window.
func (w *windows) covers(id int) bool { return w.on && w.pick[id] >= 0 }

// reset starts the search of a run.
func (w *windows) reset() {
	w.at, w.next, w.pend = -1, 0, w.pend[:0]
	w.tab.n, w.ci, w.bits = 0, -1, 0
}

// clone returns a copy of w that shares nothing with it.
func (w *windows) clone() windows {
	c := *w
	c.pick, c.pickOff = slices.Clone(w.pick), slices.Clone(w.pickOff)
	c.wins, c.ents = slices.Clone(w.wins), slices.Clone(w.ents)
	c.byBucket = slices.Clone(w.byBucket)
	c.cov, c.pend, c.sim, c.seen = winCover{}, nil, nil, slices.Clone(w.seen)
	return c
}
