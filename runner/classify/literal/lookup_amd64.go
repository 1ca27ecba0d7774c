//go:build !purego

package literal

import "golang.org/x/sys/cpu"

// haveSIMD reports whether scanAVX2 can run here.
var haveSIMD = cpu.X86.HasAVX2

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
