package runner

import (
	"context"
	"time"

	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/internal/stdio"
	"github.com/b0a38808/retry/runner/classify"
	"github.com/b0a38808/retry/runner/match"
)

// loop runs the attempts and the waits between them until one of them
// ends the operation.
func (r *run) loop(ctx context.Context) *Result {
	res := r.res
	defer func() { res.Elapsed = r.clock.Now().Sub(res.Started) }()
	if outcome := r.splay(ctx); outcome != "" {
		r.endBetween(ctx, outcome)
		return res
	}
	retryIndex := 0 // of the next wait: 0 for the first retry, or after a reset
	for n := 1; ; n++ {
		release, outcome, err := r.admit(ctx, n)
		if outcome == "" && err == nil && ctx.Err() != nil {
			// Cancelled before the budget's waits, or just after.
			release()
			outcome = Cancelled
		}
		if err != nil {
			r.err = err
			return res
		}
		if outcome != "" {
			r.endBetween(ctx, outcome)
			return res
		}
		// The time left is measured after the budget's waits: no attempt
		// starts after the deadline.
		limit, ok := attemptLimit(r.clock.Now(), r.cfg.Deadline, r.cfg.Timeout)
		if !ok {
			release()
			res.Outcome = r.ranOut()
			return res
		}
		std, err := r.streams.Begin()
		if err != nil {
			release()
			r.err = err
			return res
		}
		a := res.add(n)
		r.observeStart(a)
		out, foreground := r.attempt(ctx, a, limit, std)
		release()
		if err := r.streams.End(); err != nil {
			r.err = err
			return res
		}
		a.Hint, a.HasHint = out.Hint, out.HasHint
		d := r.rules.Classify(classify.Facts{Exit: a.Exit, Output: out})
		a.Class, a.Reason, a.Advice = d.Class, d.Reason, d.Advice
		if res.Outcome = r.verdict(ctx, a, d, foreground); res.Outcome != "" {
			r.observeFinish(a, false)
			return res
		}
		if err := r.streams.Replayable(); err != nil {
			// No other attempt could get its input: fail now, not
			// after the wait.
			r.observeFinish(a, false)
			r.err = err
			return res
		}
		delay, outcome := r.beforeWait(ctx, a, out, &retryIndex)
		if outcome != "" {
			r.endBetween(ctx, outcome)
			r.observeFinish(a, false)
			return res
		}
		a.Delay, a.HasDelay = delay, true
		r.observeFinish(a, true)
		if err := r.clock.Sleep(ctx, delay); err != nil {
			r.endBetween(ctx, Cancelled)
			return res
		}
	}
}

// verdict returns the outcome that attempt a, decided as d, brings about,
// or "" when another attempt may follow. foreground: a had the
// terminal's foreground.
func (r *run) verdict(ctx context.Context, a *Attempt, d classify.Decision, foreground bool) Outcome {
	if r.cfg.UntilFailure {
		return r.untilVerdict(ctx, a, d, foreground)
	}
	switch {
	case d.Class == classify.Success:
		return Succeeded
	case ctx.Err() != nil:
		// The attempt's output may have gone through retry, whose write
		// found the reader gone first.
		r.unread(a)
		a.Cancelled = "cancelled"
		if sig := cancelSignal(ctx); sig != 0 {
			a.Cancelled += " by " + proc.SignalName(sig)
		}
		return Cancelled
	case r.userEnded(a, foreground):
		return Cancelled
	case a.TimedOut && r.deadlinePassed():
		return Deadline
	case !d.Retry:
		return Permanent
	case r.cfg.Attempts > 0 && a.Number >= r.cfg.Attempts:
		return Exhausted
	case r.unread(a):
		// Another attempt would start: not into a closed pipe.
		return Cancelled
	}
	return ""
}

// userEnded reports whether the user ended attempt a at the terminal:
// with Ctrl-C or Ctrl-\ while a had its foreground, or by hanging it up.
// It says so in a's reason; the operation is then Cancelled.
func (r *run) userEnded(a *Attempt, foreground bool) bool {
	switch {
	case foreground && interrupted(a):
		a.Cancelled = "interrupted at the terminal"
	case r.leftTerminal(a):
		a.Cancelled = "the terminal hung up"
	default:
		return false
	}
	a.Reason += "; " + a.Cancelled
	return true
}

// unread reports whether nothing reads retry's output any more, and says
// so in attempt a's reason.
func (r *run) unread(a *Attempt) bool {
	if !r.outputGone() {
		return false
	}
	a.Reason += "; nothing reads retry's output any more"
	return true
}

// beforeWait does what comes between the failed attempt a, whose output
// showed out, and the wait after it: it draws the wait (from retry index
// *retryIndex, which it moves on), lets a server's hint lengthen it, asks
// the budget for the retry and runs Config.OnRetry. It returns the wait,
// or the outcome that ends the operation instead: Deadline whenever the
// wait would no longer end before the deadline.
func (r *run) beforeWait(ctx context.Context, a *Attempt, out match.Output, retryIndex *int) (time.Duration, Outcome) {
	if *retryIndex > 0 && r.cfg.Backoff.Reset(a.Duration) {
		*retryIndex, a.BackoffReset = 0, true
	}
	delay, err := r.cfg.Backoff.Delay(*retryIndex, r.rand)
	*retryIndex++
	if err != nil {
		// Run checked the policy; an error here is a bug.
		panic(err)
	}
	// A server's hint may lengthen the wait; the deadline still bounds it.
	backoff := delay
	delay, note := r.rules.Wait(delay, out)
	if note != "" {
		a.Reason += "; " + note
	}
	if !r.waitFits(a, delay) {
		a.HintPastDeadline = delay > backoff
		return 0, Deadline
	}
	if r.cfg.UntilFailure {
		// The run succeeded: the next is no retry.
		return delay, ""
	}
	// Asking the budget, and the OnRetry command, take time: the wait
	// must still fit after each.
	if outcome := r.allowRetry(ctx, a, delay); outcome != "" {
		return 0, outcome
	}
	if !r.waitFits(a, delay) {
		return 0, Deadline
	}
	if r.cfg.OnRetry == "" {
		return delay, ""
	}
	if outcome := r.onRetry(ctx, a); outcome != "" {
		return 0, outcome
	}
	if !r.waitFits(a, delay) {
		return 0, Deadline
	}
	return delay, ""
}

// waitFits reports whether the wait of delay after attempt a, starting
// now, ends before the deadline. When it does not, a records the wait
// and the time left, unless the deadline has come, for the summary to say
// why the operation gave up before it.
func (r *run) waitFits(a *Attempt, delay time.Duration) bool {
	now := r.clock.Now()
	if waitFits(now, delay, r.cfg.Deadline) {
		return true
	}
	if left := r.cfg.Deadline.Sub(now); left > 0 {
		a.Unstarted, a.Left = delay, left
	}
	return false
}

// endBetween ends the operation with outcome between attempts: a
// cancelling signal is then the Result's, as no attempt died from it.
func (r *run) endBetween(ctx context.Context, outcome Outcome) {
	if outcome == Deadline {
		outcome = r.ranOut()
	}
	r.res.Outcome = outcome
	if outcome == Cancelled {
		r.res.Signal = cancelSignal(ctx)
	}
}

// outputGone reports whether the reader of retry's own stdout or stderr
// has gone (`retry ... | head -1`), however the attempt ended: it died
// from SIGPIPE, or, as curl does, saw the write fail and exited 23. The
// reader ended the operation: another attempt's output has nowhere to go.
func (r *run) outputGone() bool {
	return stdio.ReaderGone(r.cfg.Stdout) || stdio.ReaderGone(r.cfg.Stderr)
}

func (r *run) observeStart(a *Attempt) {
	if r.cfg.Observer != nil {
		r.cfg.Observer.AttemptStarted(a, r.cfg.Attempts)
	}
}

func (r *run) observeFinish(a *Attempt, retrying bool) {
	if r.cfg.Observer != nil {
		r.cfg.Observer.AttemptFinished(a, r.cfg.Attempts, retrying)
	}
}
