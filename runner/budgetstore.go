package runner

import (
	"errors"
	"fmt"

	"github.com/b0a38808/retry/runner/budget"
)

// StoreFailure is what an operation does when the store that keeps its
// budget for many machines cannot be reached, answers too slowly or
// refuses (a *budget.StoreError).
type StoreFailure int

const (
	// FailOpen goes on without the budget and its concurrency cap.
	FailOpen StoreFailure = iota
	// FailClosed starts no attempt that needs the store: no retry, and
	// no attempt under a concurrency cap.
	FailClosed
)

// String returns "open" or "closed", as the report spells them.
func (f StoreFailure) String() string {
	if f == FailClosed {
		return "closed"
	}
	return "open"
}

// StoreOutage records that the budget's store failed during the operation.
type StoreOutage struct {
	// Error is the first failure; it names the store without its
	// password.
	Error string
	// Failed is what the operation did from then on.
	Failed StoreFailure
	// Budget names the budget the store kept.
	Budget string
}

// storeFailed reports whether err is a failure of the budget's store, and
// handles it when it is: the first is a warning and is recorded in the
// Result, and from then on the store is not asked again: the operation
// runs without the budget (FailOpen) or refuses what needs it (FailClosed).
func (r *run) storeFailed(err error) bool {
	var se *budget.StoreError
	if !errors.As(err, &se) {
		return false
	}
	if r.res.StoreOutage == nil {
		r.res.StoreOutage = &StoreOutage{Error: err.Error(), Failed: r.cfg.BudgetUnavailable, Budget: r.cfg.Budget.Name()}
		budget := fmt.Sprintf("budget %q", r.res.StoreOutage.Budget)
		closed, open := budget+" allows no retry", "going on without "+budget
		if r.cfg.MaxConcurrent > 0 {
			// Only what applies: the cap is named when there is one.
			closed += ", and no attempt under its concurrency cap"
			open += " and its concurrency cap"
		}
		if r.cfg.BudgetUnavailable == FailClosed {
			r.warn(fmt.Sprintf("%s; failing closed: %s", err, closed))
		} else {
			r.warn(fmt.Sprintf("%s; failing open: %s", err, open))
		}
	}
	r.cfg.Budget = nil
	return true
}

// storeRefuses reports whether the operation must start no attempt that
// needs the budget's store, because the store failed and the operation
// fails closed. It then says so in the last attempt, if any.
func (r *run) storeRefuses() bool {
	if r.res.StoreOutage == nil || r.res.StoreOutage.Failed != FailClosed {
		return false
	}
	if last := r.res.Last(); last != nil && last.Stopped == "" {
		last.Stopped = fmt.Sprintf("the store of retry budget %q is unavailable", r.res.StoreOutage.Budget)
	}
	return true
}
