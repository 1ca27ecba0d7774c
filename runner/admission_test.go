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
	"github.com/b0a38808/retry/runner/clock"
)

// stateDir returns a state directory for a test, to be created private
// by budget.Open: the one t.TempDir makes may be open to others.
func stateDir(t *testing.T) string {
	return filepath.Join(t.TempDir(), "state")
}

// openBudget opens budget "api" with policy p in dir, on the fake clock
// (nil: the real one).
func openBudget(t *testing.T, dir string, p budget.Policy, fake *fakeClock) *budget.Budget {
	t.Helper()
	var c clock.Clock // nil: the real one
	if fake != nil {
		c = fake
	}
	b, err := budget.Open(dir, "api", p, c)
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
		command  []string
		policy   budget.Policy
		attempts int
		outcome  Outcome
		ran      int
		retries  int64
	}{
		{"an empty budget stops at the first failure", []string{"exit", "3"}, budget.Policy{}, 3, Budget, 1, 0},
		{"a floor of one allows one retry", []string{"exit", "3"}, budget.Policy{Floor: 1}, 3, Budget, 2, 1},
		{"a budget with room changes nothing", []string{"exit", "3"}, budget.DefaultPolicy(), 3, Exhausted, 3, 2},
		{"success needs no retry", []string{"exit", "0"}, budget.Policy{}, 3, Succeeded, 1, 0},
		{"a permanent failure asks nothing", []string{"exit", "64"}, budget.Policy{}, 3, Permanent, 1, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{now: t0}
			b := openBudget(t, stateDir(t), tt.policy, clock)
			res, err := Run(context.Background(), Config{
				Command:  command(tt.command...),
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
		Command:       command("exit", "1"),
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
		Command:       command(),
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
		Command:       command(),
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
		Command:  command("exit", "1"),
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

// slowBudget is a RetryBudget whose lock another process holds: each call
// waits on the fake clock, for firstWait or retryWait, and gives up with
// budget.ErrDeadline at its deadline unless lateAnswer; with signalFirst
// or signalRetry, a signal cancels the operation (cancel) halfway through
// that wait.
type slowBudget struct {
	clock                    *fakeClock
	firstWait, retryWait     time.Duration
	lateAnswer               bool
	signalFirst, signalRetry bool
	cancel                   context.CancelCauseFunc

	firstDeadline, retryDeadline time.Time
	firsts, retries              int
}

func (b *slowBudget) Name() string { return "slow" }

func (b *slowBudget) wait(ctx context.Context, d time.Duration, deadline time.Time, signal bool) error {
	if signal {
		b.clock.now = b.clock.now.Add(d / 2)
		b.cancel(&SignalError{Signal: syscall.SIGTERM})
		return ctx.Err()
	}
	if !b.lateAnswer && !deadline.IsZero() && deadline.Before(b.clock.now.Add(d)) {
		b.clock.now = deadline
		return budget.ErrDeadline
	}
	b.clock.now = b.clock.now.Add(d)
	return nil
}

func (b *slowBudget) RecordFirst(ctx context.Context, deadline time.Time) (budget.Snapshot, error) {
	b.firstDeadline = deadline
	err := b.wait(ctx, b.firstWait, deadline, b.signalFirst)
	if err == nil {
		b.firsts++
	}
	return budget.Snapshot{}, err
}

func (b *slowBudget) TryRetry(ctx context.Context, deadline time.Time) (bool, budget.Snapshot, error) {
	b.retryDeadline = deadline
	err := b.wait(ctx, b.retryWait, deadline, b.signalRetry)
	if err == nil {
		b.retries++
	}
	return err == nil, budget.Snapshot{}, err
}

func (b *slowBudget) Acquire(context.Context, int, time.Time) (*budget.Slot, error) {
	panic("no concurrency cap in these tests")
}

// TestRunBudgetWaitsCountAgainstTheDeadline: waiting for the budget, to
// count the first attempt or to ask for a retry, ends at the deadline or
// when a signal cancels the operation, and no attempt or wait starts
// after either. The command fails at once (the fake clock does not move
// while it runs); the next wait would be 1s; the deadline is at 10s.
func TestRunBudgetWaitsCountAgainstTheDeadline(t *testing.T) {
	deadline := t0.Add(10 * time.Second)
	tests := []struct {
		name   string
		budget slowBudget
		// what the run must give the budget and end with
		firstDeadline, retryDeadline time.Time
		outcome                      Outcome
		ran, firsts, retries         int
		end                          time.Time // the fake clock's time at the end
	}{
		{"short waits leave time for every attempt", slowBudget{firstWait: time.Second, retryWait: time.Second},
			deadline, deadline.Add(-time.Second), Exhausted, 2, 1, 1, t0.Add(3 * time.Second)},
		{"the wait to count the first attempt ends at the deadline", slowBudget{firstWait: time.Minute},
			deadline, time.Time{}, Deadline, 0, 0, 0, deadline},
		{"a first attempt counted after the deadline does not run", slowBudget{firstWait: time.Minute, lateAnswer: true},
			deadline, time.Time{}, Deadline, 0, 1, 0, t0.Add(time.Minute)},
		{"a signal during the wait to count the first attempt", slowBudget{firstWait: time.Minute, signalFirst: true},
			deadline, time.Time{}, Cancelled, 0, 0, 0, t0.Add(30 * time.Second)},
		{"the wait to ask for a retry ends when the next wait no longer fits", slowBudget{retryWait: time.Minute},
			deadline, deadline.Add(-time.Second), Deadline, 1, 1, 0, deadline.Add(-time.Second)},
		{"a retry allowed too late for the next wait does not wait", slowBudget{retryWait: 9500 * time.Millisecond, lateAnswer: true},
			deadline, deadline.Add(-time.Second), Deadline, 1, 1, 1, t0.Add(9500 * time.Millisecond)},
		{"a signal during the wait to ask for a retry", slowBudget{retryWait: 4 * time.Second, signalRetry: true},
			deadline, deadline.Add(-time.Second), Cancelled, 1, 1, 0, t0.Add(2 * time.Second)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			clock := &fakeClock{now: t0}
			b := tt.budget
			b.clock = clock
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			b.cancel = cancel
			ran := filepath.Join(t.TempDir(), "ran")
			res, err := Run(ctx, Config{
				Command:  command("append", ran, "x", "exit", "1"),
				Attempts: 2,
				Deadline: deadline,
				Backoff:  backoff.Policy{Base: time.Second, Cap: time.Second, Jitter: backoff.None},
				Clock:    clock,
				Budget:   &b,
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tt.outcome || len(res.Attempts) != tt.ran {
				t.Errorf("got %s after %d attempts; want %s after %d", res.Outcome, len(res.Attempts), tt.outcome, tt.ran)
			}
			data, _ := os.ReadFile(ran)
			if got := strings.Count(string(data), "x"); got != tt.ran {
				t.Errorf("the command ran %d times; want %d", got, tt.ran)
			}
			if !b.firstDeadline.Equal(tt.firstDeadline) || !b.retryDeadline.Equal(tt.retryDeadline) {
				t.Errorf("the budget was given deadlines %v and %v; want %v and %v", b.firstDeadline, b.retryDeadline, tt.firstDeadline, tt.retryDeadline)
			}
			if b.firsts != tt.firsts || b.retries != tt.retries {
				t.Errorf("the budget counted %d firsts and %d retries; want %d and %d", b.firsts, b.retries, tt.firsts, tt.retries)
			}
			if !clock.now.Equal(tt.end) {
				t.Errorf("the run ended at +%v; want +%v", clock.now.Sub(t0), tt.end.Sub(t0))
			}
			if tt.outcome != Exhausted && len(clock.sleeps) != 0 {
				t.Errorf("waited %v after the budget's answer; want no wait", clock.sleeps)
			}
			if tt.outcome == Cancelled && res.Signal != syscall.SIGTERM {
				t.Errorf("the cancelling signal is %v; want SIGTERM", res.Signal)
			}
			if last := res.Last(); last != nil && tt.outcome != Exhausted && last.HasDelay {
				t.Errorf("the last attempt announces a wait of %v that never came", last.Delay)
			}
		})
	}
}
