package runner

import (
	"context"
	"time"
)

// MaxSplay returns the longest splay the operation waits before its first
// attempt: Splay, or 0 in an operation nested in another (Depth above 0),
// which does not splay.
func (c *Config) MaxSplay() time.Duration {
	if c.Depth > 0 {
		return 0
	}
	return c.Splay
}

// splay waits a uniform random time in [0, Config.Splay) before the first
// attempt, so that many operations started at one moment (a cron job on
// a fleet) do not start their attempts at once. An operation nested in
// another does not splay: the outer one did. No random number is drawn
// without a splay, so that a seeded Rand draws the same waits as before.
// It returns the outcome that ends the operation during the splay:
// Cancelled, or Deadline when the splay would not end before it.
func (r *run) splay(ctx context.Context) Outcome {
	most := r.cfg.MaxSplay()
	if most <= 0 {
		return ""
	}
	d := time.Duration(r.rand.Int64N(int64(most)))
	r.res.Splay, r.res.Splayed = d, true
	if !waitFits(r.clock.Now(), d, r.cfg.Deadline) {
		return Deadline
	}
	if o, ok := r.cfg.Observer.(SplayObserver); ok {
		o.Splaying(d)
	}
	if err := r.clock.Sleep(ctx, d); err != nil {
		return Cancelled
	}
	return ""
}
