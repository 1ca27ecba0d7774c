package runner

import "time"

// attemptLimit returns how long the next attempt may run when it starts
// at now: the timeout, shortened to the time left before the deadline.
// 0 means no limit. ok is false when the deadline has already passed.
func attemptLimit(now, deadline time.Time, timeout time.Duration) (limit time.Duration, ok bool) {
	if deadline.IsZero() {
		return timeout, true
	}
	left := deadline.Sub(now)
	if left <= 0 {
		return 0, false
	}
	if timeout > 0 && timeout < left {
		return timeout, true
	}
	return left, true
}

// waitFits reports whether a wait of d starting at now ends before the
// deadline, leaving time for another attempt.
func waitFits(now time.Time, d time.Duration, deadline time.Time) bool {
	return deadline.IsZero() || now.Add(d).Before(deadline)
}
