package stdio

import (
	"io"
	"os"
	"sync"
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

// A tee that the kernel refuses (EINVAL: here a file stands in for the
// destination pipe) moves nothing, and says so: the copy then reads the
// same bytes and writes them itself.
func TestPipeTeeRefusedMovesNothing(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	defer w.Close()
	_, dw, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer dw.Close()
	tee := newPipeTee(r, dw)
	f, err := os.Create(t.TempDir() + "/file")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if tee.dst, err = f.SyscallConn(); err != nil {
		t.Fatal(err)
	}
	w.Write([]byte("output"))
	buf := make([]byte, 64)
	if n, err := tee.next(buf); n != 0 || err != errNoTee {
		t.Fatalf("next = %d, %v; want 0, errNoTee", n, err)
	}
	if n, err := r.Read(buf); err != nil || string(buf[:n]) != "output" {
		t.Errorf("the pipe then holds %q, %v; want all of the output", buf[:n], err)
	}
}

// BenchmarkTapCopy moves 64 MiB through an attempt's pipe into a
// destination pipe that a reader drains, with tee(2) and, in the same
// run, by read and write (the destination hidden behind a plain writer),
// with the pipes at their default size and at teePipe.
func BenchmarkTapCopy(b *testing.B) {
	const size = 64 << 20
	chunk := payload(128 << 10)
	for _, bc := range []struct {
		name string
		wrap func(*os.File) io.Writer
		size int // of both pipes, for read and write; 0: as they are
	}{
		{"tee", func(f *os.File) io.Writer { return f }, 0},
		{"readwrite", func(f *os.File) io.Writer { return onlyWriter{f} }, 0},
		{"readwrite-256KiB", func(f *os.File) io.Writer { return onlyWriter{f} }, teePipe},
	} {
		b.Run(bc.name, func(b *testing.B) {
			b.SetBytes(size)
			for b.Loop() {
				dr, dw, err := os.Pipe()
				if err != nil {
					b.Fatal(err)
				}
				if bc.size > 0 {
					setPipeSize(dw, bc.size)
				}
				w := bc.wrap(dw)
				st, err := watchStream(&w, io.Discard, new(sync.Mutex))
				if err != nil {
					b.Fatal(err)
				}
				s := st.(*pipeStream)
				if bc.size > 0 {
					setPipeSize(s.r, bc.size)
				}
				s.carry()
				done := make(chan struct{})
				go func() {
					_, _ = io.CopyBuffer(io.Discard, onlyReader{dr}, make([]byte, 128<<10))
					close(done)
				}()
				for n := 0; n < size; n += len(chunk) {
					s.w.Write(chunk)
				}
				s.w.Close()
				s.wait()
				dw.Close()
				<-done
				dr.Close()
			}
		})
	}
}
