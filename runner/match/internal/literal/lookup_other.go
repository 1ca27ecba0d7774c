//go:build !amd64 || purego

package literal

// simd reports which of the SIMD lookups can run here: neither.
func simd() (avx2, avx512 bool) { return false, false }

// The lookups are never called here; each looks up no block.

func scanAVX2(t *tables, b []byte, i int) int       { return noScan(t, i) }
func scanAVX2Narrow(t *tables, b []byte, i int) int { return noScan(t, i) }
func scan512(t *tables, b []byte, i int) int        { return noScan(t, i) }
func scan512Narrow(t *tables, b []byte, i int) int  { return noScan(t, i) }

// noScan is what each lookup does here: it records no block and returns i.
func noScan(t *tables, i int) int {
	t.n = 0
	return i
}
