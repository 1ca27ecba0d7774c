package literal

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// TestSim checks the trials of the buckets against the obvious count: the
// positions of the text whose four bytes a bucket's windows have, each at
// its place.
func TestSim(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	const alphabet = "abcdeABCDE 01.\n\x80"
	for round := range 200 {
		text := make([]byte, winSample)
		for i := range text {
			text[i] = alphabet[r.IntN(len(alphabet))]
		}
		var wins []win
		for range 1 + r.IntN(20) {
			k := uint32(0)
			for j := range winSize {
				k |= uint32(alphabet[r.IntN(len(alphabet)-2)]) << (8 * j)
			}
			if r.IntN(2) == 0 {
				k |= winFold
			}
			v := newWin(k, 0)
			v.bucket = int8(r.IntN(numBuckets))
			wins = append(wins, v)
		}
		var s sim
		s.load(text)
		s.start()
		var sets [numBuckets][winSize]byteSet
		for i := range wins {
			v := &wins[i]
			s.place(v)
			b := int(v.bucket)
			for j := range winSize {
				c, alt := v.byteAt(j)
				sets[b][j].add(c)
				sets[b][j].add(alt)
			}
			if got, want := s.with(b), through(&sets[b], text); got != want {
				t.Fatalf("round %d, window %d: bucket %d lets through %d positions, want %d", round, i, b, got, want)
			}
			s.add(b)
		}
		total := 0
		for b := range sets {
			total += through(&sets[b], text)
		}
		if got := s.count(); got != total {
			t.Fatalf("round %d: the buckets let through %d positions, want %d", round, got, total)
		}
	}
}

// through counts the positions of text whose four bytes a bucket with the
// bytes set lets through, each at its place.
func through(set *[winSize]byteSet, text []byte) int {
	n := 0
	for p := 0; p+winSize <= len(text); p++ {
		ok := true
		for j := range winSize {
			ok = ok && set[j].has(text[p+j])
		}
		if ok {
			n++
		}
	}
	return n
}

func TestFewest(t *testing.T) {
	for _, c := range []struct {
		x    []float64
		n    int
		want []int
	}{
		{[]float64{5, 1, 4, 2, 3}, 3, []int{1, 3, 4}},
		{[]float64{1, 1, 1}, 2, []int{0, 1}},
		{[]float64{3, 2}, 3, []int{1, 0}},
		{[]float64{9, 8, 7, 6, 5, 4, 3, 2, 1, 0}, 1, []int{9}},
	} {
		if got := fewest(c.x, c.n); !slices.Equal(got, c.want) {
			t.Errorf("fewest(%v, %d) = %v, want %v", c.x, c.n, got, c.want)
		}
	}
}
