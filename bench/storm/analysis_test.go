package main

import (
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/budget"
)

// bins returns per-bin counts over span: rate a second in [from, to).
func bins(span time.Duration, rate float64, from, to time.Duration) []int64 {
	v := make([]int64, int(span/binWidth))
	per := rate * binWidth.Seconds()
	var acc float64
	for i := range v {
		at := time.Duration(i) * binWidth
		if at >= from && at < to {
			acc += per
			v[i] = int64(acc)
			acc -= float64(v[i])
		}
	}
	return v
}

func TestAnalyse(t *testing.T) {
	p := plan{clients: 100, interval: 10 * time.Second, before: 20 * time.Second, outage: 60 * time.Second, after: 30 * time.Second, rule: budget.Policy{Ratio: 0.1, Floor: 10}}
	span := 130 * time.Second
	steady := bins(span, 10, 0, p.span())
	for _, tc := range []struct {
		name      string
		firsts    []int64
		retries   []int64
		valid     bool
		requests  int64
		bound     float64
		recovery  time.Duration
		wantAmpli float64
	}{
		{
			name: "within the rule", firsts: steady,
			retries: bins(span, 70.0/60, 20*time.Second, 80*time.Second),
			valid:   true, requests: 600 + 70, bound: 600 + 10 + 60, wantAmpli: 670.0 / 600,
		},
		{
			name: "retries after the recovery", firsts: steady,
			retries: bins(span, 40, 20*time.Second, 83500*time.Millisecond),
			valid:   true, requests: 600 + 2400, bound: 670, recovery: 3500 * time.Millisecond, wantAmpli: 5,
		},
		{
			name: "clients too slow during the outage", firsts: append(append(bins(span, 10, 0, 20*time.Second)[:200:200], bins(span, 8, 0, 60*time.Second)[:600]...), bins(span, 10, 0, 50*time.Second)[:500]...),
			retries: make([]int64, 1300), valid: false, requests: 480, bound: 480 + 10 + 48, wantAmpli: 1,
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			f := analyse(p, run{policy: policy{name: tc.name, budget: true}, firsts: tc.firsts, retries: tc.retries})
			if f.valid != tc.valid {
				t.Errorf("valid = %v (%s), want %v", f.valid, f.why, tc.valid)
			}
			if f.requestsOut != tc.requests || f.bound != tc.bound {
				t.Errorf("requests during the outage %d within %v, want %d within %v", f.requestsOut, f.bound, tc.requests, tc.bound)
			}
			if f.recovery != tc.recovery {
				t.Errorf("recovery %v, want %v", f.recovery, tc.recovery)
			}
			if got := float64(f.requestsOut) / float64(f.firstsOut); got != tc.wantAmpli {
				t.Errorf("amplification %v, want %v", got, tc.wantAmpli)
			}
		})
	}
}
