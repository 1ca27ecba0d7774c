//go:build !amd64 || purego

package literal

// haveSIMD reports whether scanAVX2 can run here: it cannot.
const haveSIMD = false

// scanAVX2 is never called here; it looks up no block.
func scanAVX2(t *tables, b []byte, i int) int {
	t.n = 0
	return i
}

// scanAVX2Narrow is never called here; it looks up no block.
func scanAVX2Narrow(t *tables, b []byte, i int) int {
	t.n = 0
	return i
}

// have512 reports whether scan512 can run here: it cannot.
const have512 = false

// scan512 is never called here; it looks up no block.
func scan512(t *tables, b []byte, i int) int {
	t.n = 0
	return i
}

// scan512Narrow is never called here; it looks up no block.
func scan512Narrow(t *tables, b []byte, i int) int {
	t.n = 0
	return i
}
