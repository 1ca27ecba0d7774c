//go:build !amd64 || purego

package literal

// haveSIMD reports whether scanAVX2 can run here: it cannot.
const haveSIMD = false

// have512 reports whether scan512 can run here: it cannot.
const have512 = false

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
