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

// have512 reports whether scan512 can run here: AVX-512 with its ZMM state
// enabled by the OS (cpu.X86.HasAVX512 checks both), BW and VBMI.
var have512 = cpu.X86.HasAVX512 && cpu.X86.HasAVX512BW && cpu.X86.HasAVX512VBMI

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
