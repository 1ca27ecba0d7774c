package runner

import (
	"bytes"
	"errors"
	"sync"
	"testing"
	"time"
)

// gate is a destination whose writes wait until it is opened.
type gate struct {
	open chan struct{}
	mu   sync.Mutex
	got  bytes.Buffer
	err  error
}

func (g *gate) Write(p []byte) (int, error) {
	<-g.open
	g.mu.Lock()
	defer g.mu.Unlock()
	if g.err != nil {
		return 0, g.err
	}
	return g.got.Write(p)
}

func TestQueuedWriter(t *testing.T) {
	t.Run("a blocked destination does not block writes under the limit", func(t *testing.T) {
		g := &gate{open: make(chan struct{})}
		q := newQueuedWriter(g)
		want := bytes.Repeat([]byte("0123456789abcdef"), queueLimit/16/2)
		done := make(chan struct{})
		go func() {
			defer close(done)
			for i := 0; i < len(want); i += 1000 {
				if _, err := q.Write(want[i:min(i+1000, len(want))]); err != nil {
					t.Error(err)
				}
			}
		}()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Fatal("writes blocked on a destination that takes nothing yet")
		}
		close(g.open)
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(g.got.Bytes(), want) {
			t.Fatalf("destination got %d bytes, not the %d written, in order", g.got.Len(), len(want))
		}
	})
	t.Run("a full queue blocks until the destination takes", func(t *testing.T) {
		g := &gate{open: make(chan struct{})}
		q := newQueuedWriter(g)
		if _, err := q.Write(make([]byte, queueLimit)); err != nil {
			t.Fatal(err)
		}
		wrote := make(chan struct{})
		go func() {
			defer close(wrote)
			_, _ = q.Write([]byte("more"))
		}()
		select {
		case <-wrote:
			t.Fatal("a write past the limit did not wait")
		case <-time.After(50 * time.Millisecond):
		}
		close(g.open)
		<-wrote
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
		if n := g.got.Len(); n != queueLimit+4 {
			t.Fatalf("destination got %d bytes, want %d", n, queueLimit+4)
		}
	})
	t.Run("the destination's error stops the writes", func(t *testing.T) {
		broken := errors.New("broken pipe")
		g := &gate{open: make(chan struct{}), err: broken}
		close(g.open)
		q := newQueuedWriter(g)
		if _, err := q.Write([]byte("lost")); err != nil {
			t.Fatalf("first write: %v; the error comes later", err)
		}
		var err error
		for deadline := time.Now().Add(10 * time.Second); err == nil && time.Now().Before(deadline); {
			_, err = q.Write([]byte("x"))
			time.Sleep(time.Millisecond)
		}
		if !errors.Is(err, broken) {
			t.Fatalf("write after the destination failed: %v, want %v", err, broken)
		}
		if err := q.Close(); !errors.Is(err, broken) {
			t.Fatalf("Close: %v, want %v", err, broken)
		}
	})
	t.Run("nothing written: Close at once", func(t *testing.T) {
		q := newQueuedWriter(&gate{open: make(chan struct{})})
		if err := q.Close(); err != nil {
			t.Fatal(err)
		}
	})
}
