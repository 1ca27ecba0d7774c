package budget

import (
	"context"
	"errors"
	"path/filepath"
	"sync"
	"testing"
	"time"
)

// TestBudgetConcurrentExact runs 50 users of one budget at once, each with
// its own open files as separate processes would have, and checks that no
// update is lost or counted twice.
func TestBudgetConcurrentExact(t *testing.T) {
	const users = 50
	tests := []struct {
		name    string
		policy  Policy
		barrier bool // all first attempts before any retry
		retries int64
	}{
		{"floor only: exactly 10 of 50 retries", Policy{Floor: 10}, false, 10},
		{"floor and ratio: exactly 10+5 of 50 retries", DefaultPolicy(), true, 15},
		{"ratio 0.5 without floor", Policy{Ratio: 0.5}, true, 25},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			ctx := context.Background()
			var firstsDone, wg sync.WaitGroup
			firstsDone.Add(users)
			var mu sync.Mutex
			var allowed int64
			errs := make(chan error, users)
			for range users {
				wg.Add(1)
				go func() {
					defer wg.Done()
					b, err := Open(dir, "shared", tt.policy, nil)
					if err != nil {
						errs <- err
						firstsDone.Done()
						return
					}
					defer b.Close()
					_, err = b.RecordFirst(ctx, time.Time{})
					firstsDone.Done()
					if err != nil {
						errs <- err
						return
					}
					if tt.barrier {
						firstsDone.Wait()
					}
					ok, _, err := b.TryRetry(ctx, time.Time{})
					if err != nil {
						errs <- err
						return
					}
					if ok {
						mu.Lock()
						allowed++
						mu.Unlock()
					}
				}()
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Fatal(err)
			}
			if allowed != tt.retries {
				t.Errorf("%d retries allowed, want %d", allowed, tt.retries)
			}
			b := openTest(t, dir, "shared", tt.policy, nil)
			snap, err := b.Peek(ctx)
			if err != nil {
				t.Fatal(err)
			}
			if snap.Firsts != users || snap.Retries != tt.retries {
				t.Errorf("state holds %d firsts and %d retries, want %d and %d", snap.Firsts, snap.Retries, users, tt.retries)
			}
		})
	}
}

func TestBudgetLockWaitIsCancellable(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	b := openTest(t, dir, "api", DefaultPolicy(), nil)
	// Hold the budget's lock as another process would.
	holder, err := b.lock(context.Background(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	start := time.Now()
	_, err = b.RecordFirst(ctx, time.Time{})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("RecordFirst under a held lock = %v, want the context's error", err)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancellation took %v", d)
	}
	if err := unlock(holder); err != nil {
		t.Fatal(err)
	}
	if snap, err := b.RecordFirst(context.Background(), time.Time{}); err != nil || snap.Firsts != 1 {
		t.Errorf("after the lock is free: %+v, %v; want 1 first (the cancelled one not counted)", snap, err)
	}
}

// TestBudgetLockWaitEndsAtTheDeadline: the wait for a lock that another
// holds gives up when the deadline comes, as the budget's clock tells,
// and counts nothing; so does a call made after the deadline.
func TestBudgetLockWaitEndsAtTheDeadline(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	clock := newFakeClock()
	b := openTest(t, dir, "api", DefaultPolicy(), clock)
	holder, err := b.lock(context.Background(), time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	defer holder.Close()
	ctx := context.Background()
	deadline := clock.Now().Add(2 * time.Second)
	if _, err := b.RecordFirst(ctx, deadline); !errors.Is(err, ErrDeadline) {
		t.Fatalf("RecordFirst under a held lock = %v, want ErrDeadline", err)
	}
	if got := clock.Now(); !got.Equal(deadline) {
		t.Errorf("gave up at %v, want at the deadline %v", got, deadline)
	}
	if ok, _, err := b.TryRetry(ctx, clock.Now().Add(time.Second)); ok || !errors.Is(err, ErrDeadline) {
		t.Fatalf("TryRetry under a held lock = %v, %v; want false, ErrDeadline", ok, err)
	}

	// The real clock: the blocked wait ends too.
	rb := openTest(t, dir, "api", DefaultPolicy(), nil)
	start := time.Now()
	if _, err := rb.RecordFirst(ctx, start.Add(50*time.Millisecond)); !errors.Is(err, ErrDeadline) {
		t.Fatalf("RecordFirst under a held lock = %v, want ErrDeadline", err)
	}
	if d := time.Since(start); d < 40*time.Millisecond || d > 5*time.Second {
		t.Errorf("gave up after %v, want about 50ms", d)
	}

	if err := unlock(holder); err != nil {
		t.Fatal(err)
	}
	if _, err := rb.RecordFirst(ctx, time.Now().Add(-time.Millisecond)); !errors.Is(err, ErrDeadline) {
		t.Errorf("RecordFirst after the deadline = %v, want ErrDeadline", err)
	}
	if snap, err := rb.RecordFirst(ctx, time.Now().Add(5*time.Second)); err != nil || snap.Firsts != 1 || snap.Retries != 0 {
		t.Errorf("after the lock is free: %+v, %v; want 1 first (those given up not counted)", snap, err)
	}
}
