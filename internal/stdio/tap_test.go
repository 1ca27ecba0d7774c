//go:build unix

package stdio

import (
	"bytes"
	"io"
	"os"
	"os/signal"
	"runtime"
	"sync"
	"syscall"
	"testing"
	"time"
)

// lockedBuffer is a matcher that keeps what it was shown.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) bytes() []byte {
	l.mu.Lock()
	defer l.mu.Unlock()
	return bytes.Clone(l.b.Bytes())
}

// onlyWriter hides everything of a writer but Write: not a file.
type onlyWriter struct{ io.Writer }

// tapped starts a watched stream to dst that shows its bytes to m, and
// returns it with the writing end the "command" writes into.
func tapped(t *testing.T, dst io.Writer, m io.Writer) (*pipeStream, *os.File) {
	t.Helper()
	w := dst
	st, err := watchStream(&w, m, new(sync.Mutex))
	if err != nil {
		t.Fatal(err)
	}
	s := st.(*pipeStream)
	t.Cleanup(func() { s.w.Close() })
	s.carry()
	return s, s.w
}

// consume reads r to its end in reads of n bytes, pausing after each.
func consume(r io.Reader, n int, pause time.Duration) <-chan []byte {
	got := make(chan []byte, 1)
	go func() {
		var b bytes.Buffer
		buf := make([]byte, n)
		for {
			k, err := r.Read(buf)
			b.Write(buf[:k])
			if err != nil {
				got <- b.Bytes()
				return
			}
			time.Sleep(pause)
		}
	}()
	return got
}

// Large output through a pipe into a pipe arrives whole and in order, and
// the matcher sees every byte, whether the reader keeps up or not.
func TestTapPipeToPipeByteExact(t *testing.T) {
	for _, tc := range []struct {
		name      string
		size, rd  int
		pause     time.Duration
		wantInKer bool // the copy is tee(2)'s
	}{
		{"fast reader", 32 << 20, 128 << 10, 0, runtime.GOOS == "linux"},
		{"slow reader", 1 << 20, 1000, 50 * time.Microsecond, runtime.GOOS == "linux"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := payload(tc.size)
			dr, dw := producer(t)
			var m lockedBuffer
			s, w := tapped(t, dw, &m)
			if got := newPipeTee(s.r, dw) != nil; got != tc.wantInKer {
				t.Errorf("copied in the kernel: %v, want %v", got, tc.wantInKer)
			}
			got := consume(dr, tc.rd, tc.pause)
			go func() {
				w.Write(want)
				w.Close()
			}()
			within(t, 30*time.Second, "the copy", s.wait)
			dw.Close()
			if b := <-got; !bytes.Equal(b, want) {
				t.Errorf("the destination got %d bytes, not the %d written, or not in order", len(b), len(want))
			}
			if !bytes.Equal(m.bytes(), want) {
				t.Errorf("the matcher saw %d bytes, not the %d written, or not in order", len(m.bytes()), len(want))
			}
		})
	}
}

// A destination that is not a pipe (a file, a writer of retry's own) is
// written as before, by read and write.
func TestTapToAFileOrAWriter(t *testing.T) {
	want := payload(3<<20 + 17)
	f, err := os.Create(t.TempDir() + "/out")
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var buf bytes.Buffer
	for _, dst := range []io.Writer{f, onlyWriter{&buf}} {
		var m lockedBuffer
		s, w := tapped(t, dst, &m)
		if newPipeTee(s.r, dst) != nil {
			t.Errorf("%T: copied in the kernel", dst)
		}
		go func() {
			w.Write(want)
			w.Close()
		}()
		within(t, 30*time.Second, "the copy", s.wait)
		if !bytes.Equal(m.bytes(), want) {
			t.Errorf("%T: the matcher saw %d bytes, want %d", dst, len(m.bytes()), len(want))
		}
	}
	if got, _ := os.ReadFile(f.Name()); !bytes.Equal(got, want) {
		t.Errorf("the file holds %d bytes, want the %d written", len(got), len(want))
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("the writer got %d bytes, want the %d written", buf.Len(), len(want))
	}
}

// When the destination's reader goes away, the copy ends (the write
// fails with EPIPE), the matcher has seen no more than the destination
// took, and the command's next write into the closed pipe fails.
func TestTapDestinationReaderCloses(t *testing.T) {
	want := payload(8 << 20)
	dr, dw := producer(t)
	var m lockedBuffer
	s, w := tapped(t, dw, &m)
	wrote := make(chan error, 1)
	go func() {
		_, err := w.Write(want)
		wrote <- err
	}()
	read := make([]byte, 200<<10)
	if _, err := io.ReadFull(dr, read); err != nil {
		t.Fatal(err)
	}
	dr.Close()
	within(t, 10*time.Second, "the copy", s.wait)
	if err := <-wrote; err == nil {
		t.Error("the command's write into a stream nobody reads succeeded")
	}
	seen := m.bytes()
	if !bytes.HasPrefix(want, seen) || len(seen) < len(read) {
		t.Errorf("the matcher saw %d bytes, not a prefix of the output as long as the %d read", len(seen), len(read))
	}
	if !bytes.Equal(read, want[:len(read)]) {
		t.Error("the destination's reader got other bytes than were written")
	}
}

// A stream that ends with nothing written into a destination nobody reads
// is no write: retry is not sent SIGPIPE, which would say that its output
// has gone.
func TestTapNothingWrittenToAClosedReader(t *testing.T) {
	sigs := make(chan os.Signal, 1)
	signal.Notify(sigs, syscall.SIGPIPE)
	defer signal.Stop(sigs)
	dr, dw := producer(t)
	dr.Close()
	s, w := tapped(t, dw, io.Discard)
	w.Close()
	within(t, 5*time.Second, "the copy", s.wait)
	select {
	case <-sigs:
		t.Error("SIGPIPE with nothing written")
	case <-time.After(100 * time.Millisecond):
	}
}

// A destination that is slow after the process's exit does not spend the
// drain's grace: only waiting for output does. A process left behind
// holds the pipe, so a grace spent too early would hand the rest of the
// output to a relay, past the matcher.
func TestTapSlowDestinationAfterTheExit(t *testing.T) {
	want := payload(4 << 20)
	dr, dw := producer(t)
	var m lockedBuffer
	s, w := tapped(t, dw, &m)
	go w.Write(want)                  // w stays open until the end: the process left behind
	time.Sleep(50 * time.Millisecond) // the pipes fill up
	s.exited()
	time.Sleep(3 * DrainGrace) // nobody reads
	got := consume(dr, 64<<10, 0)
	within(t, 30*time.Second, "the copy", s.wait)
	w.Close()
	dw.Close()
	if !bytes.Equal(m.bytes(), want) {
		t.Errorf("the matcher saw %d bytes, want all %d", len(m.bytes()), len(want))
	}
	if b := <-got; !bytes.Equal(b, want) {
		t.Errorf("the destination got %d bytes, want all %d", len(b), len(want))
	}
}

// A process left behind that still holds the pipe after the grace keeps
// its output: a relay carries it on to the destination, in order.
func TestTapProcessLeftBehindIsRelayed(t *testing.T) {
	dr, dw := producer(t)
	s, w := tapped(t, dw, io.Discard)
	got := consume(dr, 64<<10, 0)
	w.Write([]byte("before the exit\n"))
	start := time.Now()
	s.exited()
	within(t, 5*time.Second, "the copy", s.wait)
	if d := time.Since(start); d < DrainGrace/2 || d > DrainGrace+2*time.Second {
		t.Errorf("the copy ended %v after the exit, want about %v", d, DrainGrace)
	}
	w.Write([]byte("after the grace\n"))
	w.Close()
	dw.Close() // the relay holds its own copy until it ends
	if b := string(<-got); b != "before the exit\nafter the grace\n" {
		t.Errorf("the destination got %q", b)
	}
}

// onlyReader hides everything of a reader but Read.
type onlyReader struct{ io.Reader }
