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
		for h := range 2 {
			for j := range winSize {
				for l := range 16 {
					lo, hi := byte(r.Uint32()), byte(r.Uint32())
					if round%2 == 0 { // sparse tables, so that blocks pass
						lo, hi = lo&byte(r.Uint32())&byte(r.Uint32()), hi&byte(r.Uint32())
					}
					simd.lo[h][j][l], simd.lo[h][j][l+16] = lo, lo
					simd.hi[h][j][l], simd.hi[h][j][l+16] = hi, hi
				}
			}
		}
		ref = simd
		b := make([]byte, r.IntN(200))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		from := r.IntN(40)
		narrow := round%4 >= 2
		if narrow {
			for j := range winSize {
				simd.lo[1][j], simd.hi[1][j] = [32]byte{}, [32]byte{}
			}
			ref = simd
		}
		var at int
		if narrow {
			simd.out[1] = [32]byte{}
			at = scanAVX2Narrow(&simd, b, from)
		} else {
			at = scanAVX2(&simd, b, from)
		}
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
			if ref.bits&(1<<k) != 0 && simd.buckets(k) != ref.buckets(k) {
				t.Fatalf("round %d: position %d buckets %016b, want %016b", round, k, simd.buckets(k), ref.buckets(k))
			}
		}
	}
}
