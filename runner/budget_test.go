package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
	"github.com/b0a38808/retry/runner/budget"
)

// openBudget opens budget "api" in a fresh directory on clock.
// stateDir returns a state directory for a test, to be created private
// by budget.Open: the one t.TempDir makes may be open to others.
func stateDir(t *testing.T) string {
	return filepath.Join(t.TempDir(), "state")
}

func openBudget(t *testing.T, dir string, p budget.Policy, clock *fakeClock) *budget.Budget {
	t.Helper()
	var o budget.Options
	if clock != nil {
		o = budget.Options{Now: clock.Now, Sleep: clock.Sleep}
	}
	b, err := budget.Open(dir, "api", p, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { b.Close() })
	return b
}

// warnings records the warnings a run gives.
type warnings struct{ msgs []string }

func (w *warnings) AttemptStarted(*Attempt, int)        {}
func (w *warnings) AttemptFinished(*Attempt, int, bool) {}
func (w *warnings) Warn(msg string)                     { w.msgs = append(w.msgs, msg) }

func TestRunWithBudget(t *testing.T) {
	tests := []struct {
		name     string
		command  string
		policy   budget.Policy
		attempts int
		outcome  Outcome
		ran      int
		retries  int64
	}{
		{"an empty budget stops at the first failure", "exit 3", budget.Policy{}, 3, Budget, 1, 0},
		{"a floor of one allows one retry", "exit 3", budget.Policy{Floor: 1}, 3, Budget, 2, 1},
		{"a budget with room changes nothing", "exit 3", budget.DefaultPolicy(), 3, Exhausted, 3, 2},
		{"success needs no retry", "exit 0", budget.Policy{}, 3, Succeeded, 1, 0},
		{"a permanent failure asks nothing", "exit 64", budget.Policy{}, 3, Permanent, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{now: t0}
			b := openBudget(t, stateDir(t), tt.policy, clock)
			res, err := Run(context.Background(), Config{
				Command:  []string{"sh", "-c", tt.command},
				Attempts: tt.attempts,
				Backoff:  backoff.Policy{Base: time.Millisecond, Cap: time.Millisecond},
				Clock:    clock,
				Budget:   b,
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tt.outcome || len(res.Attempts) != tt.ran {
				t.Fatalf("got %s after %d attempts; want %s after %d", res.Outcome, len(res.Attempts), tt.outcome, tt.ran)
			}
			last := res.Last()
			if tt.outcome == Budget {
				if !strings.Contains(last.Stopped, `retry budget "api" empty`) || last.HasDelay {
					t.Errorf("last attempt: Stopped %q, HasDelay %v; want the budget named and no delay", last.Stopped, last.HasDelay)
				}
				if last.ExitCode != 3 {
					t.Errorf("last exit code %d, want 3", last.ExitCode)
				}
			} else if last.Stopped != "" {
				t.Errorf("Stopped = %q, want empty", last.Stopped)
			}
			snap, err := b.Peek(context.Background())
			if err != nil {
				t.Fatal(err)
			}
			if snap.Firsts != 1 || snap.Retries != tt.retries {
				t.Errorf("budget holds %d firsts and %d retries, want 1 and %d", snap.Firsts, snap.Retries, tt.retries)
			}
		})
	}
}

func TestRunSlotIsReleasedAfterEachAttempt(t *testing.T) {
	clock := &fakeClock{now: t0}
	b := openBudget(t, stateDir(t), budget.DefaultPolicy(), clock)
	res, err := Run(context.Background(), Config{
		Command:       []string{"false"},
		Attempts:      3,
		Deadline:      t0.Add(time.Hour),
		Backoff:       backoff.Policy{Base: time.Millisecond, Cap: time.Millisecond},
		Clock:         clock,
		Budget:        b,
		MaxConcurrent: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Exhausted || len(res.Attempts) != 3 {
		t.Fatalf("got %s after %d attempts; want exhausted after 3 (a slot kept across attempts?)", res.Outcome, len(res.Attempts))
	}
	s, err := b.Acquire(context.Background(), 1, clock.Now().Add(time.Second))
	if err != nil {
		t.Fatalf("the slot is still held after the run: %v", err)
	}
	s.Release()
}

func TestRunSlotWaitCountsAgainstTheDeadline(t *testing.T) {
	dir := stateDir(t)
	holder := openBudget(t, dir, budget.DefaultPolicy(), nil)
	held, err := holder.Acquire(context.Background(), 1, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()

	clock := &fakeClock{now: t0}
	b := openBudget(t, dir, budget.DefaultPolicy(), clock)
	res, err := Run(context.Background(), Config{
		Command:       []string{"true"},
		Attempts:      3,
		Deadline:      t0.Add(2 * time.Second),
		Backoff:       backoff.Policy{Base: time.Millisecond},
		Clock:         clock,
		Budget:        b,
		MaxConcurrent: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Deadline || len(res.Attempts) != 0 {
		t.Fatalf("got %s after %d attempts; want deadline after 0", res.Outcome, len(res.Attempts))
	}
	if got := clock.Now(); got.After(t0.Add(2 * time.Second)) {
		t.Errorf("waited until %v, past the deadline", got.Sub(t0))
	}
	if snap, _ := b.Peek(context.Background()); snap.Firsts != 0 {
		t.Errorf("a first attempt was counted though none ran: %+v", snap)
	}
}

func TestRunSlotWaitIsCancelledBySignals(t *testing.T) {
	dir := stateDir(t)
	holder := openBudget(t, dir, budget.DefaultPolicy(), nil)
	held, err := holder.Acquire(context.Background(), 1, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()

	b := openBudget(t, dir, budget.DefaultPolicy(), nil)
	ctx, cancel := context.WithCancelCause(context.Background())
	go func() {
		time.Sleep(30 * time.Millisecond)
		cancel(&SignalError{Signal: syscall.SIGTERM})
	}()
	start := time.Now()
	res, err := Run(ctx, Config{
		Command:       []string{"true"},
		Backoff:       backoff.Policy{Base: time.Millisecond},
		Budget:        b,
		MaxConcurrent: 1,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Cancelled || res.Signal != syscall.SIGTERM || len(res.Attempts) != 0 {
		t.Errorf("got %s by signal %d after %d attempts; want cancelled by SIGTERM after 0", res.Outcome, res.Signal, len(res.Attempts))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("cancellation took %v", d)
	}
}

func TestRunWarnsOfACorruptBudget(t *testing.T) {
	dir := stateDir(t)
	clock := &fakeClock{now: t0}
	b := openBudget(t, dir, budget.DefaultPolicy(), clock)
	if err := os.WriteFile(filepath.Join(dir, "api.budget"), []byte("{garbage"), 0o600); err != nil {
		t.Fatal(err)
	}
	w := &warnings{}
	res, err := Run(context.Background(), Config{
		Command:  []string{"false"},
		Attempts: 2,
		Backoff:  backoff.Policy{Base: time.Millisecond},
		Clock:    clock,
		Budget:   b,
		Observer: w,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Exhausted || len(res.Attempts) != 2 {
		t.Errorf("got %s after %d attempts; want exhausted after 2", res.Outcome, len(res.Attempts))
	}
	if len(w.msgs) != 1 || !strings.Contains(w.msgs[0], "api.budget") {
		t.Errorf("warnings = %q, want one about api.budget", w.msgs)
	}
}
