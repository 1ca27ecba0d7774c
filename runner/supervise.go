package runner

import (
	"context"
	"os/exec"
	"syscall"
	"time"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/proc"
)

// watchdogAfter is how long a process runs before its watchdog starts
// (proc.Group.Watch): long enough that `retry -- true` never starts one, short
// enough that, started, it covers the attempt from its first 10 ms on.
const watchdogAfter = 2 * time.Millisecond

// child is a process that supervise runs, an attempt or the OnRetry
// command, and what supervise tells the code around it on the way.
type child struct {
	cmd *exec.Cmd // prepared with proc.Prepare
	// start starts cmd; nil means cmd.Start.
	start func() error
	// stopped, when not nil, is called when the process stops (Ctrl-Z);
	// see proc.Group.Wait.
	stopped func()
	// started, when not nil, is called once the process has started;
	// exited once its first process has been reaped, before its pipes
	// have drained.
	started, exited func()
	// what names the process for the user: "the command", "the
	// --on-retry command".
	what string
}

// supervise starts c.cmd and waits for it to end, for at most limit (0:
// no limit) and until ctx is done; signals reach its group meanwhile
// (r.signals). At the limit, or when ctx is done, it stops the group:
// the stop signal, then SIGKILL after KillAfter. It returns how the
// process ended and how long it ran from begin: StartErr set when it could
// not be started, TimedOut when the limit stopped it.
func (r *run) supervise(ctx context.Context, c child, limit time.Duration, begin time.Time) (st exitcodes.Exit, took time.Duration) {
	g, exited, released, err := r.launch(c)
	if err != nil {
		return exitcodes.Exit{StartErr: err}, r.clock.Now().Sub(begin)
	}
	if c.started != nil {
		c.started()
	}

	var timeout <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timeout = t.C
	}
	// A watchdog kills the whole group if retry is killed
	// (proc.Group.Watch), from watchdogAfter on; a process that ends
	// sooner does without the cost of starting it.
	release := g.Watch(watchdogAfter)
	done := ctx.Done()
	timedOut := false
	s := stopper{r: r}
	for {
		select {
		case st := <-exited:
			// It took as long as its first process: the time its pipes
			// take to drain is not its own, and its limit no longer runs.
			took = r.clock.Now().Sub(begin)
			r.reaped(ctx, c, g, &s)
			release()
			<-released
			st.TimedOut, st.SignalSent = timedOut, r.signals.ended(st.Signal)
			return st, took
		case <-timeout:
			timedOut = true
			s.stop(true)
		case <-done:
			done = nil
			s.stop(cancelSignal(ctx) == 0)
			s.tellCancel(c)
		case <-s.kill:
			s.kill = nil
			r.signals.send(syscall.SIGKILL)
		}
	}
}

// launch starts c.cmd on a goroutine that then reaps it, and returns its
// group. exited gets how it ended as soon as it is reaped, and released
// is closed after that, once its pipes are drained; err is why it could
// not start.
func (r *run) launch(c child) (g *proc.Group, exited <-chan exitcodes.Exit, released <-chan struct{}, err error) {
	cmd := c.cmd
	startCmd := c.start
	if startCmd == nil {
		startCmd = cmd.Start
	}
	started := make(chan error, 1) // g is set before it is sent
	reaped := make(chan exitcodes.Exit, 1)
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		// Any thread may start the child: its parent-death signal fires
		// when that thread ends, and no thread of retry's ends before
		// retry does (see proc.setParentDeathSignal).
		group, err := r.signals.start(cmd, startCmd)
		if err != nil {
			started <- err
			return
		}
		g = group
		started <- nil
		group.Wait(c.stopped, func(st exitcodes.Exit) { reaped <- st })
	}()
	if err := <-started; err != nil {
		return nil, nil, nil, err
	}
	return g, reaped, drained, nil
}

// stopper ends a supervised process, once: the stop signal, then SIGKILL
// when kill fires, after the grace.
type stopper struct {
	r        *run
	stopping bool
	kill     <-chan time.Time
	told     bool // the observer knows retry waits for the process
}

// tellCancel tells the observer, once, that the operation is cancelled
// and retry now waits up to the grace for c to exit: without a word, a
// Ctrl-C that leaves a process running for the grace looks like a hang.
func (s *stopper) tellCancel(c child) {
	if s.told || s.r.cfg.KillAfter <= 0 {
		return
	}
	s.told = true
	if o, ok := s.r.cfg.Observer.(CancelObserver); ok {
		o.Cancelling(c.what, s.r.cfg.KillAfter)
	}
}

// stop starts the stop. A cancelling signal has already been forwarded:
// it is the stop signal then, and signal is false.
func (s *stopper) stop(signal bool) {
	if s.stopping {
		return
	}
	s.stopping = true
	if signal {
		s.r.signals.stop(s.r.cfg.StopSignal)
	}
	s.kill = time.After(s.r.cfg.KillAfter)
}

// reaped deals with the rest of c's group g once its first process has
// been reaped, and tells c.
func (r *run) reaped(ctx context.Context, c child, g *proc.Group, s *stopper) {
	if ctx.Err() != nil || r.signals.cancelling() {
		// Cancelled as the process ended (perhaps by the very signal it
		// died from, forwarded a moment ago): the rest of its group is
		// stopped as with any cancel.
		s.stop(cancelSignal(ctx) == 0)
	}
	if s.stopping {
		// The first process is gone; the rest of the group has what is
		// left of the grace to end (signals still reach it: a second TERM
		// kills it), then SIGKILL, so nothing of it outlives it.
		if ctx.Err() != nil && g.Running() {
			s.tellCancel(c)
		}
		endGroup(g, s.kill)
	}
	// Whatever it left running is left alone from here; what it still
	// writes gets stdio.DrainGrace to arrive.
	if c.exited != nil {
		c.exited()
	}
}

// groupPoll is how often endGroup looks whether the group has ended.
const groupPoll = 20 * time.Millisecond

// endGroup waits until no process of g runs any more, or until kill
// fires, and then kills what is left of it. A nil kill (it has fired)
// kills at once.
func endGroup(g *proc.Group, kill <-chan time.Time) {
	if kill != nil {
		tick := time.NewTicker(groupPoll)
		defer tick.Stop()
	wait:
		for g.Running() {
			select {
			case <-kill:
				break wait
			case <-tick.C:
			}
		}
	}
	_ = g.Signal(syscall.SIGKILL)
}
