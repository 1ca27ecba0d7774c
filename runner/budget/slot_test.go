package budget

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

func TestAcquireUpToN(t *testing.T) {
	for _, n := range []int{1, 2, 5} {
		clock := newFakeClock()
		dir := filepath.Join(t.TempDir(), "state")
		b := openTest(t, dir, "api", DefaultPolicy(), clock)
		ctx := context.Background()
		var held []*Slot
		seen := map[int]bool{}
		for range n {
			s, err := b.Acquire(ctx, n, time.Time{})
			if err != nil {
				t.Fatalf("n=%d: Acquire: %v", n, err)
			}
			if seen[s.Index] || s.Index < 0 || s.Index >= n {
				t.Fatalf("n=%d: got slot %d twice or out of range", n, s.Index)
			}
			seen[s.Index] = true
			held = append(held, s)
		}
		// All n are held: the next one waits until its deadline.
		deadline := clock.Now().Add(time.Second)
		if s, err := b.Acquire(ctx, n, deadline); !errors.Is(err, ErrDeadline) {
			t.Fatalf("n=%d: Acquire with all slots held = %v, %v; want ErrDeadline", n, s, err)
		}
		if got := clock.Now(); got.After(deadline) {
			t.Errorf("n=%d: the wait overshot the deadline by %v", n, got.Sub(deadline))
		}
		// A released slot is taken again.
		if err := held[0].Release(); err != nil {
			t.Fatal(err)
		}
		if err := held[0].Release(); err != nil {
			t.Errorf("second Release = %v, want nil", err)
		}
		s, err := b.Acquire(ctx, n, clock.Now().Add(time.Second))
		if err != nil {
			t.Fatalf("n=%d: Acquire after a release: %v", n, err)
		}
		if s.Index != held[0].Index {
			t.Errorf("n=%d: got slot %d, want the freed slot %d", n, s.Index, held[0].Index)
		}
		s.Release()
		for _, h := range held[1:] {
			h.Release()
		}
	}
}

func TestAcquireWaitsForARelease(t *testing.T) {
	clock := newFakeClock()
	dir := filepath.Join(t.TempDir(), "state")
	b := openTest(t, dir, "api", DefaultPolicy(), clock)
	ctx := context.Background()
	first, err := b.Acquire(ctx, 1, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	start := clock.Now()
	wakes := 0
	clock.onWake = func() {
		wakes++
		if wakes == 5 {
			first.Release()
		}
	}
	s, err := b.Acquire(ctx, 1, start.Add(time.Minute))
	if err != nil {
		t.Fatalf("Acquire = %v, want the slot once released", err)
	}
	defer s.Release()
	// 2+4+8+16+32 ms of polling before the release.
	if want := 62 * time.Millisecond; s.Waited != want {
		t.Errorf("Waited = %v, want %v", s.Waited, want)
	}
	for _, d := range clock.slept {
		if d > slotPollMax {
			t.Errorf("slept %v, more than the %v poll cap", d, slotPollMax)
		}
	}
}

func TestAcquireCancelled(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	b := openTest(t, dir, "api", DefaultPolicy(), nil)
	held, err := b.Acquire(context.Background(), 1, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	ctx, cancel := context.WithCancel(context.Background())
	go func() {
		time.Sleep(20 * time.Millisecond)
		cancel()
	}()
	start := time.Now()
	s, err := b.Acquire(ctx, 1, time.Time{})
	if !errors.Is(err, context.Canceled) {
		t.Fatalf("Acquire = %v, %v; want context.Canceled", s, err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	if _, err := b.Acquire(ctx, 1, time.Time{}); !errors.Is(err, context.Canceled) {
		t.Errorf("Acquire with a done ctx = %v, want context.Canceled", err)
	}
}

func TestAcquirePastDeadline(t *testing.T) {
	clock := newFakeClock()
	b := openTest(t, filepath.Join(t.TempDir(), "state"), "api", DefaultPolicy(), clock)
	if _, err := b.Acquire(context.Background(), 3, clock.Now()); !errors.Is(err, ErrDeadline) {
		t.Errorf("Acquire at the deadline = %v, want ErrDeadline", err)
	}
	for _, n := range []int{0, -1, MaxSlots + 1} {
		if _, err := b.Acquire(context.Background(), n, time.Time{}); err == nil {
			t.Errorf("Acquire(n=%d) succeeded, want an error", n)
		}
	}
}

// TestAcquirePeak runs more holders than slots, each with its own open
// files, and checks that no more than n ever hold a slot at once.
func TestAcquirePeak(t *testing.T) {
	const n, users = 3, 12
	dir := filepath.Join(t.TempDir(), "state")
	var running, peak atomic.Int32
	var wg sync.WaitGroup
	errs := make(chan error, users)
	for range users {
		wg.Add(1)
		go func() {
			defer wg.Done()
			b, err := Open(dir, "api", DefaultPolicy(), nil)
			if err != nil {
				errs <- err
				return
			}
			defer b.Close()
			s, err := b.Acquire(context.Background(), n, time.Now().Add(30*time.Second))
			if err != nil {
				errs <- err
				return
			}
			r := running.Add(1)
			for {
				p := peak.Load()
				if r <= p || peak.CompareAndSwap(p, r) {
					break
				}
			}
			time.Sleep(5 * time.Millisecond)
			running.Add(-1)
			s.Release()
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	if p := peak.Load(); p > n || p < 1 {
		t.Errorf("peak of %d holders at once, want 1 to %d", p, n)
	}
}
