package main

import (
	"fmt"
	"math"
	"time"

	"github.com/b0a38808/retry/runner/budget"
)

// figures are what the page shows of one policy's run.
type figures struct {
	policy policy
	// The service's requests per second before, during and after the
	// outage; after counts from the recovery to the last start.
	rps [3]float64
	// firstRate is the first attempts per second the service saw in
	// each phase, away from the ramps at the start and the end.
	firstRate [3]float64
	// firsts and requests during the outage.
	firstsOut, requestsOut int64
	// bound is the most requests the service may see during the outage
	// with a shared budget: firstsOut, and the retries the rule allows,
	// (1 + ratio) x firstsOut + floor for an outage of one window.
	bound float64
	// recovery is the time from the recovery until the service's last
	// retry: from then on it sees the first attempts alone.
	recovery                    time.Duration
	succeeded, failed, budget   int
	broken                      int           // operations that said nothing (see the errors)
	worstWall, worstReported    time.Duration // the longest operation, by wait4 and by its report
	peakRSS                     int64
	worstLag                    time.Duration // the latest an operation started
	valid                       bool
	why                         string // why not valid
	firstErr                    error
	storeCPU                    float64
	elapsed                     time.Duration
	loadBefore, loadAfter       [3]float64
	firstsTimeline, reqTimeline []int64 // per second
}

// sumBins adds v's bins from a to b (durations from the start).
func sumBins(v []int64, a, b time.Duration) int64 {
	var n int64
	for i := int(a / binWidth); i < int(b/binWidth) && i < len(v); i++ {
		n += v[i]
	}
	return n
}

// analyse turns a run into figures.
func analyse(p plan, r run) figures {
	f := figures{policy: r.policy, elapsed: r.elapsed, storeCPU: r.storeCPU, loadBefore: r.loadBefore, loadAfter: r.load}
	ramp := p.interval / 10
	down, up, end := p.before, p.before+p.outage, p.span()
	phases := [3][2]time.Duration{{0, down}, {down, up}, {up, end}}
	steady := [3][2]time.Duration{{ramp, down}, {down, up}, {up, end - ramp}}
	f.valid = true
	for i, ph := range phases {
		d := (ph[1] - ph[0]).Seconds()
		if d > 0 {
			f.rps[i] = float64(sumBins(r.firsts, ph[0], ph[1])+sumBins(r.retries, ph[0], ph[1])) / d
		}
		st := steady[i]
		if st[1]-st[0] < p.interval/2 {
			continue // too short to say
		}
		f.firstRate[i] = float64(sumBins(r.firsts, st[0], st[1])) / (st[1] - st[0]).Seconds()
		if off := f.firstRate[i]/p.offered() - 1; math.Abs(off) > 0.10 && f.valid {
			f.valid = false
			f.why = fmt.Sprintf("%s: %.1f first attempts/s, %+.0f%% off the stated %.1f/s",
				[]string{"before", "during", "after"}[i], f.firstRate[i], 100*off, p.offered())
		}
	}
	f.firstsOut = sumBins(r.firsts, down, up)
	f.requestsOut = f.firstsOut + sumBins(r.retries, down, up)
	// The rule's allowance for the outage: one window's, for each
	// window that tiles it back from its end; the first may reach back
	// before the outage, whose first attempts pay for retries too.
	var allowance int64
	for w := up; w > down; w -= budget.Window {
		allowance += p.rule.Allowance(sumBins(r.firsts, max(w-budget.Window, 0), w))
	}
	f.bound = float64(f.firstsOut + allowance)
	for i := len(r.retries) - 1; i >= int(up/binWidth); i-- {
		if r.retries[i] > 0 {
			f.recovery = time.Duration(i+1)*binWidth - up
			break
		}
	}
	for _, o := range r.ops {
		switch {
		case o.err != nil:
			f.broken++
			if f.firstErr == nil {
				f.firstErr = o.err
			}
			continue
		case o.rep.Outcome == "succeeded":
			f.succeeded++
		case o.rep.Outcome == "budget":
			f.budget++
		default:
			f.failed++
		}
		f.worstWall = max(f.worstWall, o.wall)
		f.worstReported = max(f.worstReported, time.Duration(o.rep.ElapsedMS*float64(time.Millisecond)))
		f.peakRSS = max(f.peakRSS, o.maxRSS)
		f.worstLag = max(f.worstLag, o.lag)
	}
	if f.broken > 0 && f.valid {
		f.valid = false
		f.why = fmt.Sprintf("%d operations said nothing: %v", f.broken, f.firstErr)
	}
	perSec := int(time.Second / binWidth)
	for i := 0; i < len(r.firsts); i += perSec {
		var fs, rs int64
		for j := i; j < i+perSec && j < len(r.firsts); j++ {
			fs += r.firsts[j]
			rs += r.retries[j]
		}
		f.firstsTimeline = append(f.firstsTimeline, fs)
		f.reqTimeline = append(f.reqTimeline, fs+rs)
	}
	return f
}
