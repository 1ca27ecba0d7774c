package literal

import (
	"math/rand/v2"
	"testing"
)

// TestScanAVX2 checks the SIMD lookup against the one in Go, on random
// tables and text of every length up to a few blocks.
func TestScanAVX2(t *testing.T) {
	if !haveSIMD {
		t.Skip("no AVX2 here: the SIMD search never runs")
	}
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 2000 {
		var simd, ref tables
		for j := range winSize {
			for l := range 16 {
				lo, hi := byte(r.Uint32()), byte(r.Uint32())
				if round%2 == 0 { // sparse tables, so that blocks pass
					lo, hi = lo&byte(r.Uint32())&byte(r.Uint32()), hi&byte(r.Uint32())
				}
				simd.lo[j][l], simd.lo[j][l+16] = lo, lo
				simd.hi[j][l], simd.hi[j][l+16] = hi, hi
			}
		}
		ref = simd
		b := make([]byte, r.IntN(200))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		from := r.IntN(40)
		at := scanAVX2(&simd, b, from)
		// the reference: the first block from from with a candidate, of
		// those scanAVX2 may look up
		want := from
		for ; want+33 < len(b); want += 32 {
			if ref.block(b, want); ref.bits != 0 {
				break
			}
		}
		if want+33 >= len(b) {
			ref.bits = 0
		}
		if at != want || simd.bits != ref.bits {
			t.Fatalf("round %d, %d bytes from %d: block %d bits %032b, want %d %032b", round, len(b), from, at, simd.bits, want, ref.bits)
		}
		for k := range 32 {
			if ref.bits&(1<<k) != 0 && simd.out[k] != ref.out[k] {
				t.Fatalf("round %d: position %d buckets %08b, want %08b", round, k, simd.out[k], ref.out[k])
			}
		}
	}
}
