//go:build unix

package runner

import (
	"context"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
	"github.com/b0a38808/retry/runner/budget"
)

// TestRunBudgetLockHeldPastTheDeadline: another process holds the
// budget's lock; the wait to count the first attempt ends at the
// deadline, as the injected clock tells, and the command never runs.
func TestRunBudgetLockHeldPastTheDeadline(t *testing.T) {
	dir := stateDir(t)
	clock := &fakeClock{now: t0}
	b := openBudget(t, dir, budget.DefaultPolicy(), clock)
	f, err := os.OpenFile(filepath.Join(dir, "api.lock"), os.O_RDWR, 0)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(f.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatal(err)
	}
	// Let go after a while, so that a run that waits past the deadline
	// ends too, and is caught below.
	held := time.AfterFunc(2*time.Second, func() { f.Close() })
	t.Cleanup(func() {
		if held.Stop() {
			f.Close()
		}
	})
	ran := filepath.Join(t.TempDir(), "ran")
	res, err := Run(context.Background(), Config{
		Command:  []string{"touch", ran},
		Deadline: t0.Add(2 * time.Second),
		Backoff:  backoff.Policy{Base: time.Millisecond},
		Clock:    clock,
		Budget:   b,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Deadline || len(res.Attempts) != 0 {
		t.Errorf("got %s after %d attempts; want deadline after 0", res.Outcome, len(res.Attempts))
	}
	if _, err := os.Stat(ran); err == nil {
		t.Error("the command ran")
	}
	if got := clock.Now(); got.After(t0.Add(2 * time.Second)) {
		t.Errorf("waited until +%v, past the deadline", got.Sub(t0))
	}
}
