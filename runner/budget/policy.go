// Package budget shares a retry budget and a concurrency cap between
// every retry process on a machine that names the same budget. It is API:
// other Go programs may import it.
//
// A budget follows the per-client retry budget of Google's SRE book
// ("Handling Overload") and Finagle's RetryBudget: over a sliding window
// of about a minute, retries may be at most Ratio times the first
// attempts, plus a floor of retries that is always allowed, so that a
// client that has just started, or that runs rarely, can still retry at
// all.
//
// State lives in one private directory: a lock file per budget serialises
// every update (flock on Unix, LockFileEx on Windows), a small JSON file
// per budget holds the window's counts and is replaced atomically, and
// one file per concurrency slot is held locked for the life of an
// attempt, so the kernel frees a slot when its holder dies however it
// dies.
package budget

import (
	"fmt"
	"math"
	"time"
)

// Window is the length of the sliding window over which first attempts and
// retries are counted. Counts are kept per second, so an event stops counting
// between Window-1s and Window after it happened.
const Window = time.Minute

// ratioScale is the fixed-point scale of Policy.Ratio: the ratio is used in
// thousandths, so that "retries+1 <= floor + ratio*firsts" is decided in
// integers and 10 first attempts at ratio 0.1 allow exactly one retry.
const ratioScale = 1000

// MaxRatio is the largest ratio a Policy accepts (as in Finagle's
// RetryBudget, which caps percentCanRetry at 1000).
const MaxRatio = 1000

// Policy says how many retries a budget allows in its window.
type Policy struct {
	// Ratio is the number of retries each first attempt in the window
	// pays for: 0.1 lets one retry through for every ten first attempts.
	// It is used to a resolution of 0.001.
	Ratio float64
	// Floor is the number of retries the window allows whatever the
	// ratio: the minimum rate for clients that run rarely.
	Floor int
}

// DefaultPolicy returns the policy the manual gives --budget
// (docs/manual.md, "Budgets and caps"): retries at most 10% of first
// attempts, plus 10 retries a minute.
func DefaultPolicy() Policy {
	return Policy{Ratio: 0.1, Floor: 10}
}

// Validate reports whether p can be used.
func (p Policy) Validate() error {
	if math.IsNaN(p.Ratio) || p.Ratio < 0 || p.Ratio > MaxRatio {
		return fmt.Errorf("ratio must be between 0 and %d, got %v", MaxRatio, p.Ratio)
	}
	if p.Floor < 0 || p.Floor > math.MaxInt32 {
		return fmt.Errorf("floor must be a non-negative number of retries, got %d", p.Floor)
	}
	return nil
}

// Allowance returns how many retries the window allows in all when it holds
// firsts first attempts: Floor + Ratio*firsts, rounded down.
func (p Policy) Allowance(firsts int64) int64 {
	milli := int64(math.Round(p.Ratio * ratioScale))
	return (int64(p.Floor)*ratioScale + milli*firsts) / ratioScale
}

// Allows reports whether one more retry fits in a window that holds firsts
// first attempts and retries retries: the retries, this one included, stay
// within the allowance.
func (p Policy) Allows(firsts, retries int64) bool {
	return retries+1 <= p.Allowance(firsts)
}
