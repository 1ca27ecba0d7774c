package runner

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
	"github.com/b0a38808/retry/runner/budget"
)

// The --on-retry command runs only when another attempt will start: not
// when the budget refuses the retry.
func TestOnRetryNotRunWhenTheBudgetRefuses(t *testing.T) {
	clock := &fakeClock{now: t0}
	ran := filepath.Join(t.TempDir(), "ran")
	res, err := Run(context.Background(), Config{
		Command:  command("exit", "1"),
		Attempts: 3,
		Backoff:  backoff.Policy{Base: time.Millisecond, Cap: time.Millisecond},
		Clock:    clock,
		Budget:   openBudget(t, stateDir(t), budget.Policy{}, clock),
		OnRetry:  "echo x >" + ran,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Budget || len(res.Attempts) != 1 {
		t.Fatalf("got %s after %d attempts; want budget after 1", res.Outcome, len(res.Attempts))
	}
	if _, err := os.Stat(ran); err == nil || res.Attempts[0].Hook != nil {
		t.Errorf("the --on-retry command ran although the budget refused the retry")
	}
}

// An --on-retry command that ends in time but leaves too little of it for
// the wait ends the operation at once, as any wait that would pass the
// deadline does: the wait is not started.
func TestOnRetryThatTakesTheWaitsTimeEndsAtTheDeadline(t *testing.T) {
	start := time.Now()
	res, err := Run(context.Background(), Config{
		Command:  command("exit", "1"),
		Attempts: 3,
		Deadline: start.Add(2 * time.Second),
		Backoff:  backoff.Policy{Base: time.Second, Cap: time.Second, Jitter: backoff.None},
		OnRetry:  commandLine("sleep", "1.2s"),
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Deadline || len(res.Attempts) != 1 {
		t.Fatalf("got %s after %d attempts; want deadline after 1", res.Outcome, len(res.Attempts))
	}
	a := res.Attempts[0]
	if a.Hook == nil || a.Hook.Failed() {
		t.Fatalf("hook = %+v; want it run to its end, exit 0", a.Hook)
	}
	if a.HasDelay {
		t.Errorf("a wait of %v was started with less than that left before the deadline", a.Delay)
	}
}
