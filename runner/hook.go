package runner

import (
	"context"
	"os/exec"
	"runtime"
	"syscall"
	"time"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/runner/classify"
	"github.com/b0a38808/retry/runner/proc"
	"github.com/b0a38808/retry/runner/stdio"
)

// hookShell runs Config.OnRetry, as `sh -c`.
const hookShell = "/bin/sh"

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
	cmd := exec.Command(hookShell, "-c", r.cfg.OnRetry)
	cmd.Env = r.env.forHook(a)
	// retry's own stderr, never the attempts' held one.
	cmd.Stdout, cmd.Stderr = r.cfg.Stderr, r.cfg.Stderr
	cmd.WaitDelay = stdio.DrainGrace
	proc.Prepare(cmd)
	r.supervise(ctx, cmd, limit, h)
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

// supervise starts cmd, prepared with proc.Prepare, and waits for it to
// end, for at most limit (0: no limit) and until ctx is done, stopping its
// group as an attempt's is stopped. It records how it ended in h.
func (r *run) supervise(ctx context.Context, cmd *exec.Cmd, limit time.Duration, h *Hook) {
	started := make(chan error, 1)
	exited := make(chan exitcodes.Exit, 1)
	released := make(chan struct{})
	begin := r.clock.Now()
	go func() {
		defer close(released)
		// As for an attempt: the parent-death signal follows the thread
		// that started the process.
		runtime.LockOSThread()
		if err := r.signals.start(cmd, cmd.Start); err != nil {
			runtime.UnlockOSThread()
			started <- err
			return
		}
		started <- nil
		proc.Wait(cmd, nil, func(st exitcodes.Exit) {
			runtime.UnlockOSThread()
			exited <- st
		})
	}()
	if err := <-started; err != nil {
		h.Duration = r.clock.Now().Sub(begin)
		h.StartErr = err
		h.ExitCode = classify.StartFailureCode(err)
		return
	}
	var timeout, kill <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timeout = t.C
	}
	release := proc.Watch(cmd, watchdogAfter)
	done := ctx.Done()
	stopping := false
	stop := func(signal bool) {
		if stopping {
			return
		}
		stopping = true
		if signal {
			r.signals.stop(r.cfg.StopSignal)
		}
		kill = time.After(r.cfg.KillAfter)
	}
	for {
		select {
		case st := <-exited:
			h.Duration = r.clock.Now().Sub(begin)
			if ctx.Err() != nil || r.signals.cancelling() {
				stop(cancelSignal(ctx) == 0)
			}
			if stopping {
				endGroup(cmd, kill)
			}
			release()
			<-released
			st.TimedOut, st.SignalSent = h.TimedOut, r.signals.ended(st.Signal)
			h.Exit = st
			return
		case <-timeout:
			h.TimedOut = true
			stop(true)
		case <-done:
			done = nil
			stop(cancelSignal(ctx) == 0)
		case <-kill:
			kill = nil
			r.signals.send(syscall.SIGKILL)
		}
	}
}
