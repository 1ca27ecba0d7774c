//go:build !purego

package literal

// scanAVX2 looks up the blocks of 32 positions of b from i on, while a
// block's four bytes a position are all in b, and records in t.found those
// with a candidate, up to batch of them; it returns the first block not
// looked up.
//
//go:noescape
func scanAVX2(t *tables, b []byte, i int) int

// scanAVX2Narrow is scanAVX2 for buckets 0 to 7 alone.
//
//go:noescape
func scanAVX2Narrow(t *tables, b []byte, i int) int

// scan512 is scanAVX2 for blocks of 64 positions, each recorded as two of
// 32 where it has a candidate; it stops when one more block might not fit
// in t.found.
//
//go:noescape
func scan512(t *tables, b []byte, i int) int

// scan512Narrow is scan512 for buckets 0 to 7 alone.
//
//go:noescape
func scan512Narrow(t *tables, b []byte, i int) int
