package literal

import (
	"bytes"
	"math/rand/v2"
	"testing"
	"unsafe"
)

// TestTablesLayout checks the offsets lookup_amd64.h gives the lookups.
func TestTablesLayout(t *testing.T) {
	var x tables
	for _, c := range []struct {
		name      string
		got, want uintptr
	}{
		{"hi", unsafe.Offsetof(x.hi), 256},
		{"found", unsafe.Offsetof(x.found), 512},
		{"n", unsafe.Offsetof(x.n), 1792},
		{"cand", unsafe.Sizeof(cand{}), 80},
		{"cand.at", unsafe.Offsetof(x.found[0].at), 64},
		{"cand.bits", unsafe.Offsetof(x.found[0].bits), 72},
		{"full", unsafe.Offsetof(x.full), 1800},
	} {
		if c.got != c.want {
			t.Errorf("%s at %d, the assembly has %d", c.name, c.got, c.want)
		}
	}
}

// TestScanAVX2 checks the AVX2 lookups against the one in Go, on random
// tables and text of every length up to a few blocks.
func TestScanAVX2(t *testing.T) {
	if !haveSIMD {
		t.Skip("no AVX2 here: the SIMD search never runs")
	}
	testScan(t, scanAVX2, scanAVX2Narrow, 32)
}

// TestScan512 checks the AVX-512 lookups as TestScanAVX2 does.
func TestScan512(t *testing.T) {
	if !haveSIMD || !have512 {
		t.Skip("no AVX-512 (BW, VBMI) here: scan512 never runs")
	}
	testScan(t, scan512, scan512Narrow, 64)
}

// block looks up the 32 positions of b from i on into c in Go, as the
// lookups do, each byte x at j of bucket tables h by look: a position whose
// window does not fit is no candidate.
func (t *tables) block(b []byte, i int, c *cand, look func(h, j int, x byte) byte) {
	c.at, c.bits = i, 0
	for k := range 32 {
		for h := range 2 {
			m := byte(0)
			if i+k+winSize <= len(b) {
				m = 0xff
				for j := range winSize {
					m &= look(h, j, b[i+k+j])
				}
			}
			c.out[h][k] = m
			if m != 0 {
				c.bits |= 1 << k
			}
		}
	}
}

// nibbles is look for scanAVX2: by low and high nibble, and no bucket from
// 0x80 on, as VPSHUFB does.
func (t *tables) nibbles(h, j int, x byte) byte {
	if x >= 0x80 {
		return 0
	}
	return t.lo[h][j][x&15] & t.hi[h][j][x>>4]
}

// whole is look for scan512: by t.full, and no bucket from 0x80 on.
func (t *tables) whole(h, j int, x byte) byte {
	if x >= 0x80 {
		return 0
	}
	return t.full[h][j][x]
}

// fillFull fills t.full from the nibble tables, for lookups that find what
// scanAVX2 finds; then, with sparse, takes out a random half of its bits,
// as tables of the windows' own bytes have fewer.
func (t *tables) fillFull(r *rand.Rand, sparse bool) {
	for h := range 2 {
		for j := range winSize {
			for x := range 128 {
				t.full[h][j][x] = t.lo[h][j][x&15] & t.hi[h][j][x>>4]
				if sparse {
					t.full[h][j][x] &= byte(r.Uint32())
				}
			}
		}
	}
}

// testScan checks the lookups wide and narrow, of blocks of size
// positions, against the one in Go.
func testScan(t *testing.T, wide, narrowScan func(*tables, []byte, int) int, size int) {
	r := rand.New(rand.NewPCG(3, 4))
	for round := range 3000 {
		var simd tables
		narrow := round%4 >= 2
		for h := range 2 {
			for j := range winSize {
				for l := range 16 {
					lo, hi := byte(r.Uint32()), byte(r.Uint32())
					if round%2 == 0 { // sparse tables, so that blocks pass
						lo, hi = lo&byte(r.Uint32())&byte(r.Uint32()), hi&byte(r.Uint32())
					}
					if narrow && h == 1 {
						lo, hi = 0, 0
					}
					simd.lo[h][j][l], simd.lo[h][j][l+16] = lo, lo
					simd.hi[h][j][l], simd.hi[h][j][l+16] = hi, hi
				}
			}
		}
		simd.fillFull(r, size == 64 && round%3 == 0)
		ref := simd
		b := make([]byte, r.IntN(800))
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		from := r.IntN(40)
		var next int
		if narrow {
			next = narrowScan(&simd, b, from)
		} else {
			next = wide(&simd, b, from)
		}
		// the reference: the blocks from from with a candidate, of those
		// the lookup may read (size positions, three bytes more), up to
		// batch of them, or batch-1 for blocks recorded as two
		want, limit := from, batch-size/32+1
		for ; want+size+2 < len(b) && ref.n < limit; want += size {
			for k := 0; k < size; k += 32 {
				look := ref.nibbles
				if size == 64 {
					look = ref.whole
				}
				if ref.block(b, want+k, &ref.found[ref.n], look); ref.found[ref.n].bits != 0 {
					ref.n++
				}
			}
		}
		if next != want || simd.n != ref.n {
			t.Fatalf("round %d, %d bytes from %d: %d blocks found up to %d, want %d up to %d", round, len(b), from, simd.n, next, ref.n, want)
		}
		for i := range ref.n {
			got, want := &simd.found[i], &ref.found[i]
			if got.at != want.at || got.bits != want.bits {
				t.Fatalf("round %d: block %d at %d bits %032b, want at %d %032b", round, i, got.at, got.bits, want.at, want.bits)
			}
			for k := range 32 {
				if want.bits&(1<<k) != 0 && got.buckets(k) != want.buckets(k) {
					t.Fatalf("round %d: block at %d position %d buckets %016b, want %016b", round, got.at, k, got.buckets(k), want.buckets(k))
				}
			}
		}
	}
}

// TestChoosesSIMD checks that a Scanner left to choose takes the SIMD
// search once it has seen enough text where the anchors of its strings are
// common, and finds the same as the pure-Go search meanwhile.
func TestChoosesSIMD(t *testing.T) {
	if !haveSIMD {
		t.Skip("no AVX2 here: the SIMD search never runs")
	}
	var ss []String
	for _, w := range []string{"timed out", "temporarily", "connection reset", "try again", "service unavailable", "rate limited"} {
		ss = append(ss, String{Text: w, Fold: true}, String{Text: w + " after"})
	}
	sc := NewSet(ss).NewScanner()
	line := []byte("2026-11-30T07:00:05.005Z INFO request id=5 path=/api/v1/items/35 status=200 took=5ms retries=0\n")
	run := bytes.Repeat(line, (16<<10)/len(line))
	copy(run[len(run)/2:], "Try Again after")
	for range 8 {
		check(t, ss, sc, run)
	}
	if !sc.w.on {
		t.Errorf("after %d KiB of log lines the Scanner is still on its anchors", 8*len(run)>>10)
	}
}
