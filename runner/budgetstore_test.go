package runner

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
	"github.com/b0a38808/retry/runner/budget"
)

// downStore is a budget whose store fails from its failAt-th call on
// (calls count from 1; RecordFirst, TryRetry and Acquire alike).
type downStore struct {
	failAt int
	calls  int
}

func (d *downStore) Name() string { return "fleet" }

func (d *downStore) fail() error {
	d.calls++
	if d.calls >= d.failAt {
		return &budget.StoreError{Store: "redis://:***@127.0.0.1:1/0", Err: errors.New("connection refused")}
	}
	return nil
}

func (d *downStore) RecordFirst(context.Context, time.Time) (budget.Snapshot, error) {
	return budget.Snapshot{}, d.fail()
}

func (d *downStore) TryRetry(context.Context, time.Time) (bool, budget.Snapshot, error) {
	err := d.fail()
	return err == nil, budget.Snapshot{}, err
}

func (d *downStore) Acquire(context.Context, int, time.Time) (*budget.Slot, error) {
	if err := d.fail(); err != nil {
		return nil, err
	}
	return budget.NewSlot(0, 0, func() error { return nil }), nil
}

func TestStoreFailure(t *testing.T) {
	for _, tc := range []struct {
		name    string
		failAt  int
		cap     int
		mode    StoreFailure
		outcome Outcome
		ran     int
		calls   int // the store is not asked again once it failed
	}{
		{"open, down from the start: all attempts run", 1, 0, FailOpen, Exhausted, 3, 1},
		{"open, down at the first retry", 2, 0, FailOpen, Exhausted, 3, 2},
		{"open, under a cap: the cap goes too", 1, 2, FailOpen, Exhausted, 3, 1},
		{"closed: the first attempt runs, no retry", 1, 0, FailClosed, Budget, 1, 1},
		{"closed, down at the first retry", 2, 0, FailClosed, Budget, 1, 2},
		{"closed, under a cap: no attempt", 1, 2, FailClosed, Budget, 0, 1},
		{"closed, under a cap, down at the retry's slot", 4, 2, FailClosed, Budget, 1, 4},
	} {
		t.Run(tc.name, func(t *testing.T) {
			store := &downStore{failAt: tc.failAt}
			w := &warnings{}
			res, err := Run(context.Background(), Config{
				Command:           command("exit", "3"),
				Attempts:          3,
				Backoff:           backoff.Policy{Base: time.Millisecond, Cap: time.Millisecond},
				Clock:             &fakeClock{now: t0},
				Budget:            store,
				MaxConcurrent:     tc.cap,
				BudgetUnavailable: tc.mode,
				Observer:          w,
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tc.outcome || len(res.Attempts) != tc.ran || store.calls != tc.calls {
				t.Fatalf("got %s after %d attempts, %d calls; want %s after %d, %d calls",
					res.Outcome, len(res.Attempts), store.calls, tc.outcome, tc.ran, tc.calls)
			}
			if len(w.msgs) != 1 || !strings.Contains(w.msgs[0], "budget store redis://:***@") || !strings.Contains(w.msgs[0], "failing "+tc.mode.String()) {
				t.Fatalf("warnings %q, want one naming the budget store and failing %s", w.msgs, tc.mode)
			}
			if o := res.StoreOutage; o == nil || o.Failed != tc.mode || !strings.Contains(o.Error, "connection refused") {
				t.Fatalf("StoreOutage = %+v, want the error and %s", o, tc.mode)
			}
			if last := res.Last(); tc.outcome == Budget && last != nil && !strings.Contains(last.Stopped, "unavailable") {
				t.Fatalf("last attempt's Stopped = %q, want the store named unavailable", last.Stopped)
			}
		})
	}
}
