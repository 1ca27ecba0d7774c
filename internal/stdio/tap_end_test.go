//go:build unix

package stdio

import (
	"bytes"
	"io"
	"runtime"
	"sync"
	"testing"
	"time"
)

// slowWriter passes each write on to w after a pause.
type slowWriter struct {
	w     io.Writer
	pause time.Duration
}

func (s slowWriter) Write(p []byte) (int, error) {
	time.Sleep(s.pause)
	return s.w.Write(p)
}

// goroutinesDownTo waits up to 2 s for the number of goroutines to come
// down to n, and returns the number then: a goroutine that has closed
// its channel may still be on its way out.
func goroutinesDownTo(n int) int {
	deadline := time.Now().Add(2 * time.Second)
	for {
		got := runtime.NumGoroutine()
		if got <= n || time.Now().After(deadline) {
			return got
		}
		time.Sleep(time.Millisecond)
	}
}

// A tap slower than the destination, or a destination slower than the
// tap: each gets every byte in order, the tap has seen all of them when
// the stream's wait returns, and no goroutine of the stream is left.
func TestTapSlowTapOrSlowDestination(t *testing.T) {
	for _, tc := range []struct {
		name             string
		tapPause, rPause time.Duration // after each write to the tap, each read of the destination
		toPipe           bool          // the destination is a pipe (tee(2) on Linux), else a writer
	}{
		{"slow tap, into a pipe", 2 * time.Millisecond, 0, true},
		{"slow destination pipe", 0, 100 * time.Microsecond, true},
		{"slow tap, into a writer", 2 * time.Millisecond, 0, false},
		{"slow writer", 0, 2 * time.Millisecond, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			want := payload(4<<20 + 3)
			base := runtime.NumGoroutine()
			var m lockedBuffer
			tap := io.Writer(&m)
			if tc.tapPause > 0 {
				tap = slowWriter{&m, tc.tapPause}
			}
			var got <-chan []byte
			var dst io.Writer
			var dw io.Closer
			var buf lockedBuffer
			if tc.toPipe {
				r, w := producer(t)
				dst, dw = w, w
				got = consume(r, 64<<10, tc.rPause)
			} else {
				dst = onlyWriter{slowWriter{&buf, tc.rPause}}
			}
			s, w := tapped(t, dst, tap)
			go func() {
				w.Write(want)
				w.Close()
			}()
			within(t, 60*time.Second, "the copy", s.wait)
			if seen := m.bytes(); !bytes.Equal(seen, want) {
				t.Errorf("when wait returned the tap had seen %d bytes, not the %d written, or not in order", len(seen), len(want))
			}
			var b []byte
			if tc.toPipe {
				dw.Close()
				b = <-got
			} else {
				b = buf.bytes()
			}
			if !bytes.Equal(b, want) {
				t.Errorf("the destination got %d bytes, not the %d written, or not in order", len(b), len(want))
			}
			if n := goroutinesDownTo(base); n > base {
				t.Errorf("%d goroutines left after the stream ended, %d before it began", n, base)
			}
		})
	}
}

// The streams of an attempt that did not start are released by abort,
// whether their copy had begun (a held stream's begins before the
// process) or not: wait returns, the tap has seen what was written, the
// writing end is closed and no goroutine is left.
func TestTapAbort(t *testing.T) {
	for _, carried := range []bool{false, true} {
		base := runtime.NumGoroutine()
		dr, dw := producer(t)
		var m lockedBuffer
		w := io.Writer(dw)
		st, err := watchStream(&w, &m, new(sync.Mutex))
		if err != nil {
			t.Fatal(err)
		}
		s := st.(*pipeStream)
		want := ""
		if carried {
			s.carry()
			want = "before the abort\n"
			s.w.Write([]byte(want))
		}
		s.abort()
		within(t, 5*time.Second, "wait after abort", s.wait)
		if got := string(m.bytes()); got != want {
			t.Errorf("carried %v: the tap saw %q, want %q", carried, got, want)
		}
		if _, err := s.w.Write([]byte("x")); err == nil {
			t.Errorf("carried %v: the stream's writing end is still open", carried)
		}
		dw.Close()
		if got, _ := io.ReadAll(dr); string(got) != want {
			t.Errorf("carried %v: the destination got %q, want %q", carried, got, want)
		}
		if n := goroutinesDownTo(base); n > base {
			t.Errorf("carried %v: %d goroutines left after abort, %d before", carried, n, base)
		}
	}
}

// When the grace after the exit is spent and a process left behind still
// holds the pipe, the tap has seen everything that came before the
// handover by the time wait returns; what comes after goes to the relay,
// past the tap.
func TestTapSeesWhatCameBeforeTheHandOver(t *testing.T) {
	dr, dw := producer(t)
	var m lockedBuffer
	s, w := tapped(t, dw, slowWriter{&m, 20 * time.Millisecond})
	got := consume(dr, 64<<10, 0)
	before := bytes.Repeat([]byte("before the exit\n"), 1<<14)
	w.Write(before)
	s.exited()
	within(t, 10*time.Second, "the copy", s.wait)
	if seen := m.bytes(); !bytes.Equal(seen, before) {
		t.Errorf("the tap saw %d bytes, want the %d written before the exit", len(seen), len(before))
	}
	w.Write([]byte("after the grace\n"))
	w.Close()
	dw.Close()
	if b := <-got; string(b) != string(before)+"after the grace\n" {
		t.Errorf("the destination got %d bytes, want %d", len(b), len(before)+16)
	}
}

// failingWriter takes the first limit bytes written to it, then fails.
type failingWriter struct {
	limit int
	b     bytes.Buffer
}

func (f *failingWriter) Write(p []byte) (int, error) {
	n := min(len(p), f.limit-f.b.Len())
	f.b.Write(p[:n])
	if n < len(p) {
		return n, io.ErrShortWrite
	}
	return n, nil
}

// A destination write that fails ends the copy: the tap has seen exactly
// what the destination took when wait returns, and the command's next
// write fails.
func TestTapFailedWrite(t *testing.T) {
	want := payload(2 << 20)
	dst := &failingWriter{limit: 300<<10 + 7}
	var m lockedBuffer
	s, w := tapped(t, dst, &m)
	wrote := make(chan error, 1)
	go func() {
		_, err := w.Write(want)
		wrote <- err
	}()
	within(t, 10*time.Second, "the copy", s.wait)
	if seen := m.bytes(); !bytes.Equal(seen, dst.b.Bytes()) || len(seen) != dst.limit {
		t.Errorf("the tap saw %d bytes, want exactly the %d the destination took", len(seen), dst.limit)
	}
	if err := <-wrote; err == nil {
		t.Error("the command's write after the failed copy succeeded")
	}
}
