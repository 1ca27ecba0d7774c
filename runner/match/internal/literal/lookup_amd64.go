//go:build !purego

package literal

// The lookups are in lookup_amd64.s (AVX2) and lookup512_amd64.s
// (AVX-512), with the layout of tables they share in lookup_amd64.h.
//
// Safety, for each of them: it may run only where the CPU has its
// instructions, as simd reports (AVX2; AVX-512 F, BW and VBMI for scan512),
// which NewScanner asks once. t is the *tables of a Scanner, laid out as
// lookup_amd64.h says (TestTablesLayout checks the offsets). It reads b
// from i on only while a block's reach fits in b (i+34 < len(b) for AVX2,
// i+66 < len(b) for AVX-512: ARGS), so never outside b, nor below i, which
// must not be negative. It writes only t.found, at most batch of its
// cands, and t.n. It keeps no pointer it was given and calls nothing:
// NOSPLIT, with no frame, and noescape.

// scanAVX2 looks up the blocks of 32 positions of b from i on, while a
// block's four bytes a position are all in b, and records in t.found those
// with a candidate, up to batch of them; it returns the first block not
// looked up. See Safety above.
//
//go:noescape
func scanAVX2(t *tables, b []byte, i int) int

// scanAVX2Narrow is scanAVX2 for buckets 0 to 7 alone. See Safety above.
//
//go:noescape
func scanAVX2Narrow(t *tables, b []byte, i int) int

// scan512 is scanAVX2 for blocks of 64 positions, each recorded as two of
// 32 where it has a candidate; it stops when one more block might not fit
// in t.found. See Safety above.
//
//go:noescape
func scan512(t *tables, b []byte, i int) int

// scan512Narrow is scan512 for buckets 0 to 7 alone. See Safety above.
//
//go:noescape
func scan512Narrow(t *tables, b []byte, i int) int
