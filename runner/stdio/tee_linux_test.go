package stdio

import (
	"io"
	"os"
	"testing"
)

// The tee grows a small destination pipe and the attempt's pipe to
// teePipe, and never shrinks a destination sized larger.
func TestPipeTeeSizesThePipes(t *testing.T) {
	for _, tc := range []struct{ dst, wantDst int }{
		{0, teePipe}, // the default, 64 KiB
		{1 << 20, 1 << 20},
	} {
		r, w, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		dr, dw, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		if tc.dst > 0 {
			setPipeSize(dw, tc.dst)
		}
		if newPipeTee(r, dw) == nil {
			t.Fatal("no tee from a pipe to a pipe")
		}
		if got := pipeSize(dw); got != tc.wantDst {
			t.Errorf("destination pipe sized %d: %d bytes, want %d", tc.dst, got, tc.wantDst)
		}
		if got := pipeSize(r); got != teePipe {
			t.Errorf("the attempt's pipe: %d bytes, want %d", got, teePipe)
		}
		for _, f := range []io.Closer{r, w, dr, dw} {
			f.Close()
		}
	}
}
