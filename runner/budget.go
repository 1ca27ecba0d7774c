package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/b0a38808/retry/runner/budget"
)

// RetryBudget is a retry budget and concurrency cap shared with other
// operations; *budget.Budget is the real one.
type RetryBudget interface {
	// Name returns the budget's name, for messages.
	Name() string
	// RecordFirst counts the operation's first attempt.
	RecordFirst(ctx context.Context) (budget.Snapshot, error)
	// TryRetry asks for one retry and counts it when allowed.
	TryRetry(ctx context.Context) (bool, budget.Snapshot, error)
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

// warn passes msg to the observer when it hears warnings.
func (r *run) warn(msg string) {
	if w, ok := r.cfg.Observer.(Warner); ok {
		w.Warn(msg)
	}
}

// acquireSlot waits for a concurrency slot when the operation has a cap.
// The wait counts against the deadline and ends with ctx. It returns the
// slot's release function, or the outcome that ends the operation
// (Deadline or Cancelled), or an error when the slot files fail.
func (r *run) acquireSlot(ctx context.Context) (release func(), outcome Outcome, err error) {
	if r.cfg.Budget == nil || r.cfg.MaxConcurrent <= 0 {
		return func() {}, "", nil
	}
	slot, err := r.cfg.Budget.Acquire(ctx, r.cfg.MaxConcurrent, r.cfg.Deadline)
	switch {
	case err == nil:
		return func() { _ = slot.Release() }, "", nil
	case errors.Is(err, budget.ErrDeadline):
		return nil, Deadline, nil
	case ctx.Err() != nil:
		return nil, Cancelled, nil
	}
	return nil, "", err
}

// recordFirst counts the first attempt in the budget. A failure to do so
// is a warning: a first attempt is not a retry, so it runs anyway.
func (r *run) recordFirst(ctx context.Context) {
	if r.cfg.Budget == nil {
		return
	}
	snap, err := r.cfg.Budget.RecordFirst(ctx)
	if snap.Warning != "" {
		r.warn(snap.Warning)
	}
	if err != nil && ctx.Err() == nil {
		r.warn(err.Error())
	}
}

// allowRetry asks the budget for the retry after attempt a. When it is
// refused, a.Stopped says why. A budget that cannot be read or saved
// refuses: under doubt, retry does not add load.
func (r *run) allowRetry(ctx context.Context, a *Attempt) bool {
	if r.cfg.Budget == nil {
		return true
	}
	ok, snap, err := r.cfg.Budget.TryRetry(ctx)
	if snap.Warning != "" {
		r.warn(snap.Warning)
	}
	switch {
	case err != nil && ctx.Err() != nil:
		// Cancelled while asking: the loop ends the operation as
		// cancelled.
		return true
	case err != nil:
		r.warn(err.Error())
		a.Stopped = fmt.Sprintf("retry budget %q unavailable", r.cfg.Budget.Name())
		return false
	case !ok:
		a.Stopped = fmt.Sprintf("retry budget %q empty: %d of %d retries used in the last minute",
			r.cfg.Budget.Name(), snap.Retries, snap.Allowance)
		return false
	}
	return true
}
