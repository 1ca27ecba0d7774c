package clock

import (
	"context"
	"errors"
	"testing"
	"time"
)

func TestRealSleep(t *testing.T) {
	cancelled, cancel := context.WithCancel(context.Background())
	cancel()
	for _, tc := range []struct {
		name    string
		ctx     context.Context
		d       time.Duration
		wantErr error
		atLeast time.Duration
	}{
		{"waits d", context.Background(), 20 * time.Millisecond, nil, 20 * time.Millisecond},
		{"no wait", context.Background(), 0, nil, 0},
		{"cancelled: at once", cancelled, time.Hour, context.Canceled, 0},
		{"cancelled, no wait", cancelled, 0, context.Canceled, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			start := time.Now()
			err := Real{}.Sleep(tc.ctx, tc.d)
			took := time.Since(start)
			if !errors.Is(err, tc.wantErr) {
				t.Fatalf("err = %v, want %v", err, tc.wantErr)
			}
			if took < tc.atLeast || took > tc.atLeast+10*time.Second {
				t.Fatalf("slept %v, want at least %v (and not much more)", took, tc.atLeast)
			}
		})
	}
}
