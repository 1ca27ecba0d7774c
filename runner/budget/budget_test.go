package budget

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/clock"
)

// fakeClock is a clock whose Sleep advances it at once.
type fakeClock struct {
	mu     sync.Mutex
	now    time.Time
	slept  []time.Duration
	onWake func()
}

func newFakeClock() *fakeClock {
	return &fakeClock{now: time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)}
}

func (c *fakeClock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *fakeClock) Advance(d time.Duration) {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.now = c.now.Add(d)
}

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.slept = append(c.slept, d)
	wake := c.onWake
	c.mu.Unlock()
	if wake != nil {
		wake()
	}
	return nil
}

// openTest opens name in dir, failing the test on error.
func openTest(t *testing.T, dir, name string, p Policy, c clock.Clock) *Budget {
	t.Helper()
	b, err := Open(dir, name, p, c)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

func TestBudgetSequence(t *testing.T) {
	type step struct {
		advance time.Duration
		op      string // "first", "retry" (allowed), "refused"
	}
	tests := []struct {
		name   string
		policy Policy
		steps  []step
	}{
		{
			name:   "the floor alone: 10 retries a minute",
			policy: Policy{Floor: 10},
			steps: append(repeat(10, step{op: "retry"}),
				step{op: "refused"},
				step{advance: 30 * time.Second, op: "refused"},
				step{advance: 30 * time.Second, op: "retry"}),
		},
		{
			name:   "the ratio: one retry per ten first attempts",
			policy: Policy{Ratio: 0.1},
			steps: append(append(repeat(9, step{op: "first"}), step{op: "refused"}, step{op: "first"}, step{op: "retry"}, step{op: "refused"}),
				append(repeat(10, step{op: "first"}), step{op: "retry"}, step{op: "refused"})...),
		},
		{
			name:   "the window slides",
			policy: Policy{Ratio: 0.1},
			steps: concat(
				repeat(10, step{op: "first"}), // t=0s
				[]step{{op: "retry"}},
				[]step{{advance: 30 * time.Second, op: "first"}}, // t=30s
				repeat(9, step{op: "first"}),
				[]step{{op: "retry"}, {op: "refused"}},
				// t=61s: the ten firsts of t=0s and their retry have left
				// the window; ten firsts and one retry remain
				[]step{{advance: 31 * time.Second, op: "refused"}},
				repeat(10, step{op: "first"}),
				[]step{{op: "retry"}, {op: "refused"}},
			),
		},
		{
			name:   "floor and ratio add up",
			policy: DefaultPolicy(),
			steps: append(append(repeat(20, step{op: "first"}), repeat(12, step{op: "retry"})...),
				step{op: "refused"}),
		},
		{
			name:   "nothing allowed",
			policy: Policy{},
			steps:  append(repeat(100, step{op: "first"}), step{op: "refused"}),
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := newFakeClock()
			b := openTest(t, filepath.Join(t.TempDir(), "state"), "api", tt.policy, clock)
			ctx := context.Background()
			for i, s := range tt.steps {
				clock.Advance(s.advance)
				switch s.op {
				case "first":
					snap, err := b.RecordFirst(ctx, time.Time{})
					if err != nil || snap.Warning != "" {
						t.Fatalf("step %d: RecordFirst: %v %q", i, err, snap.Warning)
					}
				default:
					ok, snap, err := b.TryRetry(ctx, time.Time{})
					if err != nil {
						t.Fatalf("step %d: TryRetry: %v", i, err)
					}
					if want := s.op == "retry"; ok != want {
						t.Fatalf("step %d: TryRetry = %v (%+v), want %v", i, ok, snap, want)
					}
				}
			}
		})
	}
}

func concat[T any](parts ...[]T) []T {
	var all []T
	for _, p := range parts {
		all = append(all, p...)
	}
	return all
}

func repeat[T any](n int, v T) []T {
	s := make([]T, n)
	for i := range s {
		s[i] = v
	}
	return s
}

func TestBudgetSnapshotAndPersistence(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	clock := newFakeClock()
	ctx := context.Background()
	b, err := Open(dir, "api", DefaultPolicy(), clock)
	if err != nil {
		t.Fatal(err)
	}
	for range 20 {
		if _, err := b.RecordFirst(ctx, time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	ok, snap, err := b.TryRetry(ctx, time.Time{})
	if err != nil || !ok {
		t.Fatalf("TryRetry = %v, %v", ok, err)
	}
	want := Snapshot{Firsts: 20, Retries: 1, Allowance: 12}
	if snap != want {
		t.Errorf("snapshot = %+v, want %+v", snap, want)
	}
	b.Close()

	// Another process, later: the counts are on disk.
	clock.Advance(10 * time.Second)
	b2 := openTest(t, dir, "api", Policy{Ratio: 0.5}, clock)
	snap, err = b2.Peek(ctx)
	if err != nil {
		t.Fatal(err)
	}
	want = Snapshot{Firsts: 20, Retries: 1, Allowance: 10}
	if snap != want {
		t.Errorf("after reopening: snapshot = %+v, want %+v", snap, want)
	}
	// Another budget in the same directory is independent.
	other := openTest(t, dir, "db", DefaultPolicy(), clock)
	if snap, _ := other.Peek(ctx); snap.Firsts != 0 || snap.Retries != 0 {
		t.Errorf("budget db sees %+v, want an empty window", snap)
	}
}

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

func TestBudgetCorruptStateIsReset(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
	}{
		{"garbage", writeString("\x00\x01 not json")},
		{"truncated", writeString(`{"version":1,"buckets":[{"s":`)},
		{"future version", writeString(`{"version":99,"buckets":[]}`)},
		{"negative count", writeString(`{"version":1,"buckets":[{"s":1,"firsts":-5,"retries":0}]}`)},
		{"too large", writeString(strings.Repeat("x", 2*maxStateSize))},
		{"symlink", func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "target")
			if err := os.WriteFile(target, []byte("precious"), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				data, err := os.ReadFile(target)
				if err != nil || string(data) != "precious" {
					t.Errorf("the symlink's target was touched: %q, %v", data, err)
				}
			})
			if err := os.Symlink(target, path); err != nil {
				t.Skip(err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			b := openTest(t, dir, "api", DefaultPolicy(), nil)
			path := filepath.Join(dir, "api.budget")
			tt.setup(t, path)
			snap, err := b.RecordFirst(context.Background(), time.Time{})
			if err != nil {
				t.Fatalf("RecordFirst on a corrupt state: %v", err)
			}
			if !strings.Contains(snap.Warning, "api.budget") || !strings.Contains(snap.Warning, "new window") {
				t.Errorf("warning = %q, want one naming the file and the reset", snap.Warning)
			}
			if snap.Firsts != 1 || snap.Retries != 0 {
				t.Errorf("after reset: %+v, want 1 first and 0 retries", snap)
			}
			fi, err := os.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() || fi.Mode().Perm() != 0o600 {
				t.Errorf("state file after reset: %v, %v; want a regular file, mode 0600", fi.Mode(), err)
			}
			snap, err = b.RecordFirst(context.Background(), time.Time{})
			if err != nil || snap.Warning != "" || snap.Firsts != 2 {
				t.Errorf("second update: %+v, %v; want 2 firsts and no warning", snap, err)
			}
		})
	}
}

func writeString(s string) func(*testing.T, string) {
	return func(t *testing.T, path string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBudgetModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "state")
	b := openTest(t, dir, "api", DefaultPolicy(), nil)
	if _, err := b.RecordFirst(context.Background(), time.Time{}); err != nil {
		t.Fatal(err)
	}
	s, err := b.Acquire(context.Background(), 1, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	want := map[string]os.FileMode{
		dir:                                  os.ModeDir | 0o700,
		filepath.Dir(dir):                    os.ModeDir | 0o700,
		filepath.Join(dir, "api.lock"):       0o600,
		filepath.Join(dir, "api.budget"):     0o600,
		filepath.Join(dir, "api.slot.0"):     0o600,
		filepath.Join(dir, "api.budget.tmp"): 0, // renamed away
	}
	for path, mode := range want {
		fi, err := os.Lstat(path)
		if mode == 0 {
			if !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s: exists (%v), want it gone", path, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if got := fi.Mode() & (os.ModeDir | os.ModePerm); got != mode {
			t.Errorf("%s: mode %v, want %v", path, got, mode)
		}
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

func TestOpenErrors(t *testing.T) {
	tmp := t.TempDir()
	file := filepath.Join(tmp, "file")
	if err := os.WriteFile(file, nil, 0o600); err != nil {
		t.Fatal(err)
	}
	tests := []struct {
		name   string
		dir    string
		budget string
		policy Policy
		want   string
	}{
		{"a file in the way", filepath.Join(file, "state"), "api", DefaultPolicy(), "cannot create"},
		{"the directory is a file", file, "api", DefaultPolicy(), "state directory"},
		{"bad name", filepath.Join(tmp, "s1"), "../x", DefaultPolicy(), "budget name"},
		{"bad policy", filepath.Join(tmp, "s2"), "api", Policy{Ratio: -1}, "ratio"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			b, err := Open(tt.dir, tt.budget, tt.policy, nil)
			if err == nil {
				b.Close()
				t.Fatal("Open succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %q, want it to mention %q", err, tt.want)
			}
		})
	}
}
