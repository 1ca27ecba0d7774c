package runner

import (
	"context"
	"fmt"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/runner/classify"
)

// untilVerdict is verdict for an operation that runs until a failure
// (Config.UntilFailure): a run that succeeded is followed by another
// until the attempts run out (Passed), and the first that did not ends
// the operation (Failed). A run that the deadline cut short found
// nothing: the time ran out (ranOut). One that the user cancelled, or
// that found its output unread, ends it as Cancelled.
func (r *run) untilVerdict(ctx context.Context, a *Attempt, d classify.Decision, foreground bool) Outcome {
	passed := d.Class == classify.Success
	switch {
	case ctx.Err() != nil:
		if passed {
			// It did not die from the signal: retry ends by it.
			r.res.Signal = cancelSignal(ctx)
		} else {
			a.Reason = "cancelled" // not the failure looked for
			if sig := cancelSignal(ctx); sig != 0 {
				a.Reason += " by " + proc.SignalName(sig)
			}
		}
		return Cancelled
	case passed:
	case r.userEnded(a, foreground):
		return Cancelled
	case a.TimedOut && r.deadlinePassed():
		a.Reason = "the deadline cut it short"
		return r.ranOut()
	default:
		a.Class, a.Reason, a.Advice = classify.Failure, FailureReason(a.Exit, d), ""
		return Failed
	}
	r.res.Passed++
	switch {
	case r.cfg.Attempts > 0 && a.Number >= r.cfg.Attempts:
		return Passed
	case r.unread(a):
		return Cancelled
	}
	return ""
}

// ranOut returns the outcome of an operation that the deadline ended:
// Deadline, or Passed when it ran until a failure and a run passed
// before the deadline came: no failure came in the time it had.
func (r *run) ranOut() Outcome {
	if r.cfg.UntilFailure && r.res.Passed > 0 {
		return Passed
	}
	return Deadline
}

// deadlinePassed reports whether the operation's deadline has come.
func (r *run) deadlinePassed() bool {
	return !r.cfg.Deadline.IsZero() && !r.clock.Now().Before(r.cfg.Deadline)
}

// FailureReason says how a run that Classify did not call a success (d)
// failed, for an operation that runs until a failure: "exit 1", "timed
// out", "killed by SIGSEGV", or what d says of a command that could not
// start or of a --fail-if match.
func FailureReason(e exitcodes.Exit, d classify.Decision) string {
	switch {
	case e.StartErr != nil:
		return d.Reason
	case e.TimedOut:
		return "timed out"
	case e.Signal != 0:
		return "killed by " + proc.SignalName(e.Signal)
	case e.ExitCode == 0:
		return d.Reason // exit 0 but --fail-if matched
	}
	return fmt.Sprintf("exit %d", e.ExitCode)
}
