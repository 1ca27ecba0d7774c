package stdio

import (
	"io"
	"os"
)

// OneStream reports whether a and b, where the attempts' stdout and
// stderr go, are one stream that the command writes both into: the same
// open file description of a file, pipe or socket, as after `>log 2>&1`
// or `2>&1 | tee log`. Two opens of one file (`>log 2>log`) are two
// streams, as are writers other than files. A character device is never
// one stream: a terminal stays the command's own, and on the null device
// order does not show.
//
// Linux tells the open file description (kcmp(2)). Where it cannot (a
// seccomp filter that refuses kcmp, as in containers, or a system without
// it), a pipe that both name is one stream, as every byte written to it
// goes through one buffer to one reader; files are then taken apart.
func OneStream(a, b io.Writer) bool {
	return oneStream(a, b, sameDescription)
}

// oneStream is OneStream, asking same whether two files are the same open
// file description; known is false when same cannot tell.
func oneStream(a, b io.Writer, same func(a, b *os.File) (same, known bool)) bool {
	fa, ok := a.(*os.File)
	if !ok || fa == nil {
		return false
	}
	fb, ok := b.(*os.File)
	if !ok || fb == nil {
		return false
	}
	ia, err := fa.Stat()
	if err != nil || ia.Mode()&os.ModeCharDevice != 0 {
		return false
	}
	ib, err := fb.Stat()
	if err != nil || !os.SameFile(ia, ib) {
		return false
	}
	if one, known := same(fa, fb); known {
		return one
	}
	return ia.Mode()&os.ModeNamedPipe != 0
}
