// Package backoff computes the wait before a retry: a capped exponential
// delay with jitter, the design document's retryDelay in time.Duration.
// It is API: other Go programs may import it.
package backoff

import (
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"time"
)

// Jitter selects how much randomness a delay gets.
type Jitter int

// The jitter policies. Full is the default and the design document's.
const (
	// Full draws the delay uniformly from [0, u).
	Full Jitter = iota
	// Equal waits u/2 plus a uniform draw from [0, u/2).
	Equal
	// None waits exactly u.
	None
)

// maxShift caps the exponent, as the design document does.
const maxShift = 30

// ErrInvalid reports arguments that retryDelay rejects: a negative retry
// index, a base that is not positive, or a negative cap.
var ErrInvalid = errors.New("backoff: invalid arguments")

// String returns the flag spelling of j.
func (j Jitter) String() string {
	switch j {
	case Full:
		return "full"
	case Equal:
		return "equal"
	case None:
		return "none"
	}
	return fmt.Sprintf("Jitter(%d)", int(j))
}

// ParseJitter reads a --jitter value.
func ParseJitter(s string) (Jitter, error) {
	switch s {
	case "full":
		return Full, nil
	case "equal":
		return Equal, nil
	case "none":
		return None, nil
	}
	return 0, fmt.Errorf("must be full, equal or none, got %q", s)
}

// Policy holds the backoff settings of one operation.
type Policy struct {
	Base   time.Duration // the first retry's upper bound; must be > 0
	Cap    time.Duration // the largest upper bound; must be >= 0
	Jitter Jitter
	// ResetAfter, when > 0, starts the backoff over after an attempt that
	// ran at least that long before it failed (see Reset).
	ResetAfter time.Duration
}

// Reset reports whether an attempt that ran for d before it failed starts
// the backoff over under p: the wait after it is drawn for retry index 0,
// as a long-running job that fails hours apart should not wait the cap
// each time.
func (p Policy) Reset(d time.Duration) bool {
	return p.ResetAfter > 0 && d >= p.ResetAfter
}

// Delay returns the wait before the retry with index retryIndex (0 for the
// first retry) under p, drawing randomness from r.
func (p Policy) Delay(retryIndex int, r *rand.Rand) (time.Duration, error) {
	return Delay(retryIndex, p.Base, p.Cap, p.Jitter, r)
}

// Upper returns u = min(cap, base*2^min(retryIndex, 30)), saturating
// instead of overflowing. It is the exclusive upper bound of a fully
// jittered delay.
func Upper(retryIndex int, base, cap time.Duration) time.Duration {
	shift := min(retryIndex, maxShift)
	exponential := time.Duration(math.MaxInt64)
	if base <= math.MaxInt64>>shift {
		exponential = base << shift
	}
	return min(cap, exponential)
}

// Bounds returns the range that Delay draws the wait before the retry
// with index retryIndex from: [lo, hi) for full and equal jitter, lo ==
// hi == u for none. The draw is uniform, so the median wait is lo +
// (hi-lo)/2. It reads the same formula as Delay.
func (p Policy) Bounds(retryIndex int) (lo, hi time.Duration) {
	u := Upper(retryIndex, p.Base, p.Cap)
	if u <= 0 {
		return 0, 0
	}
	switch p.Jitter {
	case None:
		return u, u
	case Equal:
		half := u / 2
		if half <= 0 {
			return u - half, u - half
		}
		return u - half, u
	default:
		return 0, u
	}
}

// Delay is the design document's retryDelay: the same argument checks,
// the shift capped at 30, saturation on overflow, and for full jitter a
// uniform draw from [0, upper). It works in time.Duration rather than
// whole milliseconds, so sub-millisecond bases still jitter.
func Delay(retryIndex int, base, cap time.Duration, j Jitter, r *rand.Rand) (time.Duration, error) {
	if retryIndex < 0 || base <= 0 || cap < 0 {
		return 0, ErrInvalid
	}
	u := Upper(retryIndex, base, cap)
	if u <= 0 {
		return 0, nil
	}
	switch j {
	case None:
		return u, nil
	case Equal:
		half := u / 2
		if half <= 0 {
			return u - half, nil
		}
		return u - half + time.Duration(r.Int64N(int64(half))), nil
	default:
		return time.Duration(r.Int64N(int64(u))), nil
	}
}
