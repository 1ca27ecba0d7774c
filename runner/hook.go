package runner

import (
	"context"
	"time"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/internal/stdio"
	"github.com/b0a38808/retry/runner/classify"
)

// Hook is the record of one run of Config.OnRetry, after a failed attempt.
type Hook struct {
	Duration time.Duration
	// Exit is how it ended: ExitCode 126 or 127 when the shell could not
	// be started; TimedOut when the deadline came while it ran and it was
	// stopped.
	exitcodes.Exit
}

// Failed reports whether the hook did not exit 0 of its own accord.
func (h *Hook) Failed() bool {
	return h.StartErr != nil || h.TimedOut || h.Signal != 0 || h.ExitCode != 0
}

// onRetry runs Config.OnRetry after the failed attempt a, records how it
// ended in a.Hook, and returns the outcome it brings about: Deadline when
// it ran into the deadline, Cancelled when it was cancelled, Permanent
// when it failed under OnRetryStop, or "" to go on to the wait.
//
// It runs as an attempt does, in a process group of its own that gets
// the signals retry forwards, bounded by the time left before the
// deadline and stopped there with the stop signal, then SIGKILL after
// KillAfter. Its stdin is the null device and both its streams go to
// retry's stderr, so that it never mixes into held or piped stdout.
func (r *run) onRetry(ctx context.Context, a *Attempt) Outcome {
	if ctx.Err() != nil {
		return Cancelled
	}
	limit, ok := attemptLimit(r.clock.Now(), r.cfg.Deadline, 0)
	if !ok {
		return Deadline
	}
	h := &Hook{}
	a.Hook = h
	cmd := proc.Shell(r.cfg.OnRetry)
	cmd.Env = r.env.forHook(a)
	// retry's own stderr, never the attempts' held one.
	cmd.Stdout, cmd.Stderr = r.cfg.Stderr, r.cfg.Stderr
	cmd.WaitDelay = stdio.DrainGrace
	proc.Prepare(cmd)
	st, took := r.supervise(ctx, child{cmd: cmd, what: "the --on-retry command"}, limit, r.clock.Now())
	h.Duration, h.Exit = took, st
	if st.StartErr != nil {
		h.ExitCode = classify.StartFailureCode(st.StartErr)
	}
	switch {
	case ctx.Err() != nil:
		return Cancelled
	case h.TimedOut:
		return Deadline
	case h.Failed() && r.cfg.OnRetryStop:
		a.Reason += "; stopped: --on-retry failed (--on-retry-fail stop)"
		return Permanent
	}
	return ""
}
