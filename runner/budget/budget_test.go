package budget

import (
	"context"
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
