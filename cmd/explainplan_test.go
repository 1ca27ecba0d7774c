package cmd

import (
	"math"
	"reflect"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
)

func TestPlanSteps(t *testing.T) {
	s := time.Second
	full := backoff.Policy{Base: s, Cap: 4 * s, Jitter: backoff.Full}
	tests := []struct {
		name     string
		p        backoff.Policy
		attempts int
		want     []planStep
	}{
		{"one attempt", full, 1, []planStep{{first: 1, last: 1}}},
		{"5 attempts, waits from 1s doubling to 4s", full, 5, []planStep{
			{1, 1, true, 0, s}, {2, 2, true, 0, 2 * s}, {3, 4, true, 0, 4 * s}, {first: 5, last: 5},
		}},
		{"many attempts stay few steps", full, 1_000_000, []planStep{
			{1, 1, true, 0, s}, {2, 2, true, 0, 2 * s}, {3, 999_999, true, 0, 4 * s}, {first: 1_000_000, last: 1_000_000},
		}},
		{"unlimited", full, 0, []planStep{{1, 1, true, 0, s}, {2, 2, true, 0, 2 * s}, {3, 0, true, 0, 4 * s}}},
		{"no wait", backoff.Policy{Base: s, Cap: 0}, 3, []planStep{{1, 2, true, 0, 0}, {first: 3, last: 3}}},
		{"equal jitter", backoff.Policy{Base: s, Cap: 2 * s, Jitter: backoff.Equal}, 3, []planStep{
			{1, 1, true, s / 2, s}, {2, 2, true, s, 2 * s}, {first: 3, last: 3},
		}},
		{"no cap reached: the shift stops at 30", backoff.Policy{Base: time.Nanosecond, Cap: math.MaxInt64, Jitter: backoff.None}, 0, nil},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := planSteps(tt.p, tt.attempts)
			if tt.want == nil {
				last := got[len(got)-1]
				if len(got) != 31 || last.first != 31 || last.last != 0 || last.max != time.Nanosecond<<30 {
					t.Errorf("got %d steps, the last %+v; want 31, the last from attempt 31 on with 2^30ns", len(got), last)
				}
				return
			}
			if !reflect.DeepEqual(got, tt.want) {
				t.Errorf("got  %+v\nwant %+v", got, tt.want)
			}
		})
	}
}

func TestWaitTotals(t *testing.T) {
	s := time.Second
	longest, median := waitTotals(planSteps(backoff.Policy{Base: s, Cap: 4 * s}, 5))
	if longest != 11*s || median != 5500*time.Millisecond {
		t.Errorf("got %v, %v; want 11s, 5.5s", longest, median)
	}
	longest, _ = waitTotals(planSteps(backoff.Policy{Base: s, Cap: math.MaxInt64, Jitter: backoff.None}, math.MaxInt32))
	if longest != math.MaxInt64 {
		t.Errorf("a huge plan gave %v; want the largest duration, not an overflow", longest)
	}
}

func TestStartsWithin(t *testing.T) {
	s := time.Second
	steps := planSteps(backoff.Policy{Base: s, Cap: 4 * s}, 5)
	longest := func(p planStep) time.Duration { return p.max }
	median := func(p planStep) time.Duration { return p.median() }
	tests := []struct {
		name     string
		steps    []planStep
		deadline time.Duration
		per      time.Duration
		wait     func(planStep) time.Duration
		n        int
		all      bool
	}{
		// 1 + 2 + 4 = 7s before attempt 4; its 4s wait would end at 11s.
		{"-d 10s cannot hold 5 attempts", steps, 10 * s, 0, longest, 4, false},
		{"a wait that ends at the deadline leaves no time", steps, 11 * s, 0, longest, 4, false},
		{"a wait that ends before the deadline", steps, 11*s + 1, 0, longest, 5, true},
		{"median waits", steps, 10 * s, 0, median, 5, true},
		// 2+1, 2+2, 2+4: attempt 4 starts at 13s, the deadline comes during it.
		{"attempts take time", steps, 14 * s, 2 * s, longest, 4, false},
		{"no time at all", steps, 0, 0, longest, 0, false},
		// Starts at 0, 1, 3, 7, 11, 15, 19s; the 7th's wait would end at 23s.
		{"unlimited", planSteps(backoff.Policy{Base: s, Cap: 4 * s}, 0), 20 * s, 0, longest, 7, false},
		{"unlimited without waits or timeout", planSteps(backoff.Policy{Base: s, Cap: 0}, 0), 20 * s, 0, longest, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			n, all := startsWithin(tt.steps, tt.deadline, tt.per, tt.wait)
			if n != tt.n || all != tt.all {
				t.Errorf("got %d, %v; want %d, %v", n, all, tt.n, tt.all)
			}
		})
	}
}
