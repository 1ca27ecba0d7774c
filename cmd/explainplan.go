package cmd

import (
	"math"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
)

// planStep is a run of attempts whose waits after them have the same
// bounds, as retry explain prints them.
type planStep struct {
	first, last int // attempts first to last; last 0: and every later one
	wait        bool
	min, max    time.Duration // the bounds of each wait, from backoff
}

// count is how many attempts the step holds; 0 for unlimited.
func (s planStep) count() int {
	if s.last == 0 {
		return 0
	}
	return s.last - s.first + 1
}

// median is the median of one wait: the draw is uniform.
func (s planStep) median() time.Duration { return s.min + (s.max-s.min)/2 }

// planSteps groups the attempts of an operation (0: unlimited) by the
// bounds of the wait after each, as backoff.Policy.Bounds gives them. The
// bounds stop changing once the cap or the largest shift is reached, so
// the steps are few whatever the number of attempts.
func planSteps(p backoff.Policy, attempts int) []planStep {
	var steps []planStep
	for n := 1; ; n++ {
		if attempts > 0 && n == attempts {
			return append(steps, planStep{first: n, last: n})
		}
		lo, hi := p.Bounds(n - 1)
		if k := len(steps) - 1; k >= 0 && steps[k].min == lo && steps[k].max == hi {
			steps[k].last = n
		} else {
			steps = append(steps, planStep{first: n, last: n, wait: true, min: lo, max: hi})
		}
		if nlo, nhi := p.Bounds(n); nlo == lo && nhi == hi {
			// Stable from here on: every later wait has these bounds.
			k := len(steps) - 1
			if attempts == 0 {
				steps[k].last = 0
				return steps
			}
			steps[k].last = attempts - 1
			return append(steps, planStep{first: attempts, last: attempts})
		}
	}
}

// waitTotals adds up the longest and the median waits of a finite plan.
// The sum of independent uniform draws is symmetric about the sum of
// their midpoints, so the median of the total is the sum of the medians.
func waitTotals(steps []planStep) (longest, median time.Duration) {
	for _, s := range steps {
		if s.wait {
			longest = addSat(longest, mulSat(s.max, s.count()))
			median = addSat(median, mulSat(s.median(), s.count()))
		}
	}
	return longest, median
}

// startsWithin counts the attempts of the plan that start before deadline
// when each attempt takes per and each wait is wait(step): a wait that
// would end after the deadline is not started, and no attempt starts once
// it has come. all is true when no attempt is left out; n is then 0 for an
// unlimited plan whose attempts and waits take no time.
func startsWithin(steps []planStep, deadline, per time.Duration, wait func(planStep) time.Duration) (n int, all bool) {
	var t time.Duration
	for _, s := range steps {
		if !s.wait { // the last attempt
			if t < deadline {
				return n + 1, true
			}
			return n, false
		}
		cycle := addSat(per, wait(s))
		if cycle == 0 {
			if s.count() == 0 {
				return 0, true
			}
			n += s.count()
			continue
		}
		fit := int64((deadline - t) / cycle)
		if c := s.count(); c == 0 || int64(c) > fit {
			// The deadline comes within this step.
			n += int(fit)
			t = addSat(t, mulSat(cycle, int(fit)))
			if t < deadline {
				n++ // starts, and its wait would pass the deadline
			}
			return n, false
		}
		n += s.count()
		t = addSat(t, mulSat(cycle, s.count()))
	}
	return n, true
}

// addSat and mulSat saturate at the largest Duration instead of
// overflowing: a plan of a million attempts of 30s waits is long, not
// negative.
func addSat(a, b time.Duration) time.Duration {
	if a > math.MaxInt64-b {
		return math.MaxInt64
	}
	return a + b
}

func mulSat(d time.Duration, n int) time.Duration {
	if n != 0 && d > time.Duration(math.MaxInt64/int64(n)) {
		return math.MaxInt64
	}
	return d * time.Duration(n)
}
