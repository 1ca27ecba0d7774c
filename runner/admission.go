package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/b0a38808/retry/runner/budget"
)

// RetryBudget is a retry budget and concurrency cap shared with other
// operations: *budget.Budget keeps it in files on this machine,
// *redisstore.Store in Redis for many machines.
type RetryBudget interface {
	// Name returns the budget's name, for messages.
	Name() string
	// RecordFirst counts the operation's first attempt. It waits for
	// the budget until ctx is done or the deadline (zero: none) comes,
	// and then fails with budget.ErrDeadline.
	RecordFirst(ctx context.Context, deadline time.Time) (budget.Snapshot, error)
	// TryRetry asks for one retry and counts it when allowed. It waits
	// for the budget until ctx is done or the deadline (zero: none)
	// comes, and then fails with budget.ErrDeadline.
	TryRetry(ctx context.Context, deadline time.Time) (bool, budget.Snapshot, error)
	// Acquire takes one of n concurrency slots, waiting for one until
	// ctx is done or the deadline (zero: none) comes.
	Acquire(ctx context.Context, n int, deadline time.Time) (*budget.Slot, error)
}

// Warner is an Observer that also hears warnings: something went wrong
// that did not stop the operation, such as a corrupt budget state file
// that was reset.
type Warner interface {
	Warn(msg string)
}

// warn passes msg to the observer when it hears warnings, once: a budget
// that cannot save its state fails the same way at every attempt.
func (r *run) warn(msg string) {
	if r.warned[msg] {
		return
	}
	if r.warned == nil {
		r.warned = map[string]bool{}
	}
	r.warned[msg] = true
	if w, ok := r.cfg.Observer.(Warner); ok {
		w.Warn(msg)
	}
}

// admit does the budget's part before attempt n starts: it waits for a
// concurrency slot, and counts a first attempt. Both waits count against
// the deadline and end with ctx. It returns the slot's release function,
// or the outcome that ends the operation (Deadline or Cancelled), or an
// error when the slot files fail.
func (r *run) admit(ctx context.Context, n int) (release func(), outcome Outcome, err error) {
	release, outcome, err = r.acquireSlot(ctx)
	if outcome != "" || err != nil || n > 1 {
		return release, outcome, err
	}
	if outcome := r.recordFirst(ctx); outcome != "" {
		release()
		return nil, outcome, nil
	}
	return release, "", nil
}

// acquireSlot waits for a concurrency slot when the operation has a cap,
// unless an enclosing attempt runs in one of the same budget, which this
// attempt then shares (nestedSlot). The wait counts against the deadline
// and ends with ctx. It returns the slot's release function, or the
// outcome that ends the operation (Deadline or Cancelled), or an error
// when the slot files fail.
func (r *run) acquireSlot(ctx context.Context) (release func(), outcome Outcome, err error) {
	id, shared := r.nestedSlot()
	if shared {
		// Waiting for a slot of its own would wait for the enclosing
		// attempt, which waits for this one; and it counts in the cap
		// already.
		r.slot = id
		return func() {}, "", nil
	}
	r.slot = ""
	if r.cfg.MaxConcurrent > 0 && r.storeRefuses() {
		return nil, Budget, nil
	}
	if r.cfg.Budget == nil || r.cfg.MaxConcurrent <= 0 {
		return func() {}, "", nil
	}
	slot, err := r.cfg.Budget.Acquire(ctx, r.cfg.MaxConcurrent, r.cfg.Deadline)
	switch {
	case err == nil:
		name := r.cfg.Budget.Name()
		r.slot = id
		return func() {
			// A slot that could not be freed keeps others of the cap
			// waiting: in a store, until its lease ends.
			err := slot.Release()
			var se *budget.StoreError
			switch {
			case errors.As(err, &se):
				r.warn(fmt.Sprintf("%s; the slot of budget %q stays taken until its lease ends", err, name))
			case err != nil:
				r.warn(fmt.Sprintf("%s; could not release the slot of budget %q", err, name))
			}
		}, "", nil
	case errors.Is(err, budget.ErrDeadline):
		return nil, Deadline, nil
	case ctx.Err() != nil:
		return nil, Cancelled, nil
	case r.storeFailed(err):
		if r.storeRefuses() {
			return nil, Budget, nil
		}
		return func() {}, "", nil
	}
	return nil, "", err
}

// recordFirst counts the first attempt in the budget. Its wait for the
// budget ends at the deadline or with ctx, and so does the operation: it
// returns Deadline or Cancelled then. A failure to count is a warning: a
// first attempt is not a retry, so it runs anyway.
func (r *run) recordFirst(ctx context.Context) Outcome {
	if r.cfg.Budget == nil {
		return ""
	}
	snap, err := r.cfg.Budget.RecordFirst(ctx, r.cfg.Deadline)
	if outcome := r.budgetWaitEnded(ctx, snap, err); outcome != "" {
		return outcome
	}
	if err != nil && !r.storeFailed(err) {
		r.warn(err.Error())
	}
	return ""
}

// budgetWaitEnded passes on the budget's warning, if any, and returns the
// outcome that ends the operation when the wait for the budget did:
// Deadline, or Cancelled when ctx is done.
func (r *run) budgetWaitEnded(ctx context.Context, snap budget.Snapshot, err error) Outcome {
	if snap.Warning != "" {
		r.warn(snap.Warning)
	}
	switch {
	case errors.Is(err, budget.ErrDeadline):
		return Deadline
	case ctx.Err() != nil:
		return Cancelled
	}
	return ""
}

// allowRetry asks the budget for the retry after attempt a, which would
// follow a wait of delay. It returns "" when the budget allows it, or the
// outcome that ends the operation: Budget when the budget refuses (then
// a.Stopped says why); Deadline when the answer would come too late for
// the wait to end before the deadline; Cancelled when ctx is done while
// asking. A budget that cannot be read or saved refuses: under doubt,
// retry does not add load. A budget's shared store that fails is the
// caller's choice (Config.BudgetUnavailable).
func (r *run) allowRetry(ctx context.Context, a *Attempt, delay time.Duration) Outcome {
	if r.storeRefuses() {
		return Budget
	}
	if r.cfg.Budget == nil {
		return ""
	}
	latest := r.cfg.Deadline // when the wait must start at the latest
	if !latest.IsZero() {
		latest = latest.Add(-delay)
	}
	ok, snap, err := r.cfg.Budget.TryRetry(ctx, latest)
	if outcome := r.budgetWaitEnded(ctx, snap, err); outcome != "" {
		return outcome
	}
	switch {
	case err != nil && r.storeFailed(err):
		if r.storeRefuses() {
			return Budget
		}
	case err != nil:
		r.warn(err.Error())
		a.Stopped = fmt.Sprintf("retry budget %q unavailable", r.cfg.Budget.Name())
		return Budget
	case !ok:
		a.Stopped = fmt.Sprintf("retry budget %q empty: %d of %d retries used in the last minute",
			r.cfg.Budget.Name(), snap.Retries, snap.Allowance)
		return Budget
	}
	return ""
}
