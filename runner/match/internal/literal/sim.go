package literal

import "math/bits"

// The buckets of the lookups by whole byte (scan512) are weighed on text
// too, not only on the bytes' frequencies: a bucket lets through every
// position whose four bytes it has, each at its place, and in text those
// bytes are far from independent (a bucket of "atch", "cann" and "lock"
// lets through the "cach" of every "cache").

const simWords = winSample / 64

// sim tries the buckets' lookups on a sample of text.
type sim struct {
	n   int                                   // positions in the sample
	pos [128][simWords]uint64                 // by ASCII byte: where it is in the sample
	acc [numBuckets][winSize][simWords]uint64 // by bucket and byte of the window: the positions whose byte there the bucket has
	win [winSize][simWords]uint64             // the window being placed: the positions whose byte there it has
	cur *win                                  // that window
}

// load puts text, up to winSample bytes of it, in the trials.
func (s *sim) load(text []byte) {
	s.pos = [128][simWords]uint64{}
	s.n = min(len(text), winSample)
	for i, c := range text[:s.n] {
		if c < 0x80 {
			s.pos[c][i/64] |= 1 << (i % 64)
		}
	}
}

// start starts the trials of a placing, with every bucket empty.
func (s *sim) start() {
	s.acc = [numBuckets][winSize][simWords]uint64{}
	s.cur = nil
}

// place makes v the window being placed.
func (s *sim) place(v *win) {
	if s.cur == v {
		return
	}
	s.cur = v
	for j := range winSize {
		c, alt := v.byteAt(j)
		x, y, w := &s.pos[c], &s.pos[alt], &s.win[j]
		if j == 0 {
			for i := range w {
				w[i] = x[i] | y[i]
			}
			continue
		}
		for i := range simWords - 1 {
			w[i] = (x[i]|y[i])>>j | (x[i+1]|y[i+1])<<(64-j)
		}
		w[simWords-1] = (x[simWords-1] | y[simWords-1]) >> j
	}
}

// with returns how many positions of the sample bucket b lets through with
// the window being placed in it.
func (s *sim) with(b int) int {
	a, w := &s.acc[b], &s.win
	n := 0
	for i := range simWords {
		n += bits.OnesCount64((a[0][i] | w[0][i]) & (a[1][i] | w[1][i]) & (a[2][i] | w[2][i]) & (a[3][i] | w[3][i]))
	}
	return n
}

// add puts the window being placed into bucket b.
func (s *sim) add(b int) {
	for j := range winSize {
		for i := range simWords {
			s.acc[b][j][i] |= s.win[j][i]
		}
	}
}

// count returns how many positions of the sample the buckets let through,
// summed over the buckets.
func (s *sim) count() int {
	n := 0
	for b := range s.acc {
		a := &s.acc[b]
		for i := range simWords {
			n += bits.OnesCount64(a[0][i] & a[1][i] & a[2][i] & a[3][i])
		}
	}
	return n
}
