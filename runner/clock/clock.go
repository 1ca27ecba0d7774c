// Package clock is the one Clock that the runner and the retry budget
// take, and the real one they use unless a test gives them a fake.
// It is API: other Go programs may import it.
package clock

import (
	"context"
	"time"
)

// Clock tells the time and waits. Tests inject a fake one so that
// backoff, deadline and budget arithmetic can be checked without sleeping.
type Clock interface {
	// Now returns the current time.
	Now() time.Time
	// Sleep waits for d, or until ctx is done, and then returns
	// ctx.Err().
	Sleep(ctx context.Context, d time.Duration) error
}

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
