package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
	"github.com/b0a38808/retry/runner/budget"
)

func TestSlotID(t *testing.T) {
	for _, tc := range []struct{ name, scope, want string }{
		{"api", "/home/u/.local/state/retry", "api@/home/u/.local/state/retry"},
		{"api", "redis://127.0.0.1:6379/0", "api@redis://127.0.0.1:6379/0"},
		{"api", "/a dir/with\ttabs", "api@/a%20dir/with%09tabs"},
		{"api", "/100%20", "api@/100%2520"},
		{"api", "/a\u00a0b\vc\fd\u0085e\x01f", "api@/a%C2%A0b%0Bc%0Cd%C2%85e%01f"},
		{"api", "/caf\u00e9/\xff", "api@/caf\u00e9/\xff"},
	} {
		got := SlotID(tc.name, tc.scope)
		if got != tc.want {
			t.Errorf("SlotID(%q, %q) = %q, want %q", tc.name, tc.scope, got, tc.want)
		}
		// Nest reads RETRY_SLOT with strings.Fields.
		if f := strings.Fields(got); len(f) != 1 {
			t.Errorf("SlotID(%q, %q) = %q, read back as %d slots", tc.name, tc.scope, got, len(f))
		}
	}
}

// An operation nested in an attempt that runs in a slot of its budget runs
// in that slot: with the cap's only slot held (here by the test, for the
// enclosing attempt), its attempts run at once, and pass the slot down.
// Another budget, or the same name kept elsewhere, waits for a slot of
// its own (here until the deadline).
func TestNestedSlot(t *testing.T) {
	dir := stateDir(t)
	clock := &fakeClock{now: t0}
	b := openBudget(t, dir, budget.DefaultPolicy(), clock)
	held, err := b.Acquire(context.Background(), 1, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	defer held.Release()
	mine := SlotID("api", dir)
	for _, tc := range []struct {
		name      string
		enclosing []string
		scope     string
		noCap     bool
		outcome   Outcome
		slots     string // the attempts' RETRY_SLOT
	}{
		{"the enclosing attempt's slot", []string{mine}, dir, false, Exhausted, mine},
		{"among others", []string{"other@" + dir, mine}, dir, false, Exhausted, "other@" + dir + " " + mine},
		{"no cap of its own: passed on", []string{mine}, dir, true, Exhausted, mine},
		{"another budget's", []string{"other@" + dir}, dir, false, Deadline, ""},
		{"the same name kept elsewhere", []string{SlotID("api", "redis://127.0.0.1:6379/0")}, dir, false, Deadline, ""},
		{"no scope to tell", []string{mine}, "", false, Deadline, ""},
		{"none", nil, dir, false, Deadline, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			out := filepath.Join(t.TempDir(), "slots")
			maxConcurrent := 1
			if tc.noCap {
				maxConcurrent = 0
			}
			res, err := Run(context.Background(), Config{
				Command:        command("append", out, "$RETRY_SLOT", "exit", "1"),
				Attempts:       2,
				Deadline:       clock.Now().Add(time.Second),
				Backoff:        backoff.Policy{Base: time.Millisecond, Cap: time.Millisecond},
				Clock:          clock,
				Budget:         b,
				MaxConcurrent:  maxConcurrent,
				BudgetScope:    tc.scope,
				EnclosingSlots: tc.enclosing,
				Depth:          1,
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tc.outcome {
				t.Fatalf("outcome %s after %d attempts, want %s", res.Outcome, len(res.Attempts), tc.outcome)
			}
			got, _ := os.ReadFile(out)
			if want := strings.Repeat(tc.slots+"\n", len(res.Attempts)); tc.slots != "" && string(got) != want {
				t.Errorf("the attempts' RETRY_SLOT: %q, want %q", got, want)
			}
		})
	}
}
