// Package clock is the real clock that the runner and the retry budget use
// unless a test gives them a fake one.
package clock

import (
	"context"
	"time"
)

// Real tells the time and waits with the system's clock.
type Real struct{}

// Now returns the current time.
func (Real) Now() time.Time { return time.Now() }

// Sleep waits for d, or until ctx is done, and then returns ctx.Err().
func (Real) Sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}
