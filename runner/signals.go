package runner

import (
	"context"
	"os"
	"os/exec"
	"os/signal"
	"sync"
	"syscall"

	"github.com/b0a38808/retry/internal/proc"
)

// Cancels reports whether sig, received by retry, cancels the operation:
// INT, TERM, HUP and QUIT do; others (USR1, USR2) are only forwarded.
func Cancels(sig syscall.Signal) bool {
	switch sig {
	case syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT:
		return true
	}
	return false
}

// interrupted reports whether an attempt that had the terminal's
// foreground died as Ctrl-C or Ctrl-\ make it die: the user ended it, and
// that never calls for another attempt. (Those keys reach the attempt, not
// retry, while it has the foreground.) A SIGINT or SIGQUIT that retry
// sent itself, as --stop-signal at a timeout, is not the user's.
func interrupted(a *Attempt) bool {
	return (a.Signal == syscall.SIGINT || a.Signal == syscall.SIGQUIT) && !a.SignalSent
}

// leftTerminal reports whether the attempt died from a SIGHUP that retry
// neither sent nor forwarded after retry's terminal hung up: the user
// left (the kernel sends SIGHUP to the terminal's foreground group), and
// another attempt would run without the terminal.
func (r *run) leftTerminal(a *Attempt) bool {
	return r.term != nil && a.Signal == syscall.SIGHUP && !a.SignalSent && r.term.HungUp()
}

// forwarder is the one way signals reach an attempt: those retry receives
// (Config.Signals), forwarded, and those it sends itself (the stop signal,
// SIGKILL). It remembers which it sent, so that a death by one of them is
// not taken for a death by a signal from elsewhere.
type forwarder struct {
	cancel context.CancelCauseFunc
	ready  <-chan struct{} // closed once the signals are caught; nil: they are (see caught)

	mu        sync.Mutex
	group     *proc.Group             // the running attempt's; nil between attempts
	sent      map[syscall.Signal]bool // signals sent to its group
	cancelled syscall.Signal          // the first cancelling signal
}

func newForwarder(cancel context.CancelCauseFunc, ready <-chan struct{}) *forwarder {
	return &forwarder{cancel: cancel, ready: ready}
}

// listen forwards the signals of ch until the returned stop is called.
func (f *forwarder) listen(ch <-chan os.Signal) (stop func()) {
	if ch == nil {
		return func() {}
	}
	done := make(chan struct{})
	exited := make(chan struct{})
	go func() {
		defer close(exited)
		for {
			select {
			case s := <-ch:
				if sig, ok := s.(syscall.Signal); ok {
					f.receive(sig)
				}
			case <-done:
				return
			}
		}
	}()
	return func() { close(done); <-exited }
}

// receive handles one signal retry received: it goes to the running
// attempt's group, and if it cancels, no other attempt starts. A second
// INT or TERM after a cancelling signal kills the group at once.
func (f *forwarder) receive(sig syscall.Signal) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.cancelled != 0 && (sig == syscall.SIGINT || sig == syscall.SIGTERM) {
		f.sendLocked(syscall.SIGKILL)
		return
	}
	if Cancels(sig) {
		f.stopLocked(sig)
	} else {
		f.sendLocked(sig)
	}
	if Cancels(sig) && f.cancelled == 0 {
		f.cancelled = sig
		f.cancel(&SignalError{Signal: sig})
	}
}

// cancelling reports whether a cancelling signal has been received. A
// signal being forwarded holds the lock until the cancel is recorded, so
// an attempt that died from it finds it recorded once reaped.
func (f *forwarder) cancelling() bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.cancelled != 0
}

// send sends sig to the running attempt's group, if any.
func (f *forwarder) send(sig syscall.Signal) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.sendLocked(sig)
}

// stop sends sig to the running attempt's group to end it, and then
// SIGCONT, as timeout(1) does: a stopped process (SIGSTOP, or Ctrl-Z
// where no shell continues it) would otherwise act on sig only when
// continued, and get SIGKILL first.
func (f *forwarder) stop(sig syscall.Signal) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.stopLocked(sig)
}

func (f *forwarder) stopLocked(sig syscall.Signal) {
	f.sendLocked(sig)
	if proc.Continue != 0 && sig != syscall.SIGKILL && sig != proc.Continue {
		f.sendLocked(proc.Continue)
	}
}

func (f *forwarder) sendLocked(sig syscall.Signal) {
	if f.group == nil {
		return
	}
	f.sent[sig] = true
	_ = f.group.Signal(sig)
}

// start starts cmd with startCmd (proc.Start), makes its group the one
// signals go to, and returns it.
// No signal is handled meanwhile: one that arrives while the process is
// being created reaches it once it exists. So does a cancelling signal
// that arrived after the runner decided to start the attempt. The caller
// has called caught.
func (f *forwarder) start(cmd *exec.Cmd, startCmd func() error) (*proc.Group, error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	g, err := proc.Start(cmd, startCmd)
	if err != nil {
		return nil, err
	}
	f.group, f.sent = g, map[syscall.Signal]bool{}
	if f.cancelled != 0 {
		f.sendLocked(f.cancelled)
	}
	return g, nil
}

// caught waits until the signals are caught (Config.SignalsReady). Run
// calls it once it is set up, before the first attempt.
func (f *forwarder) caught() {
	if f.ready != nil {
		<-f.ready
		f.ready = nil
	}
}

// ended forgets the attempt, which died from sig (0: it exited), and
// reports whether retry sent or forwarded sig to it.
func (f *forwarder) ended(sig syscall.Signal) (sent bool) {
	f.mu.Lock()
	defer f.mu.Unlock()
	sent = sig != 0 && f.sent[sig]
	f.group, f.sent = nil, nil
	return sent
}

// SignalCatcher catches the signals retry forwards to its attempts
// (proc.Forwarded), for Config.Signals, and SIGPIPE, for a caller that
// must outlive a write of its own to an output without a reader. A signal
// ignored when retry started stays ignored, for retry and its attempts,
// as with timeout(1): `nohup retry ...` and background jobs of a shell
// without job control keep their SIGHUP and SIGINT ignored. (Go respects
// only these two; see the manual.) It also makes SIGTTOU and SIGTTIN
// harmless (proc.IgnoreJobControl), as Config.Terminal needs.
//
// Where catching is dear (proc.NotifyCostly: os/signal), it runs on a
// goroutine of its own, so that it overlaps the caller's set-up; Run waits
// for it (Config.SignalsReady) before it starts the first attempt, so no
// attempt ever runs while one of these signals still has its default
// action.
type SignalCatcher struct {
	ch    chan os.Signal
	pipe  chan os.Signal
	ready chan struct{}
}

// CatchSignals starts catching the forwarded signals and SIGPIPE.
func CatchSignals() *SignalCatcher {
	c := &SignalCatcher{ch: make(chan os.Signal, 16), pipe: make(chan os.Signal, 1), ready: make(chan struct{})}
	catch := func() {
		defer close(c.ready)
		var sigs []os.Signal
		for _, sig := range proc.Forwarded() {
			if !signal.Ignored(sig) {
				sigs = append(sigs, sig)
			}
		}
		proc.Notify(c.ch, sigs...)
		proc.IgnoreJobControl()
		if !signal.Ignored(syscall.SIGPIPE) {
			proc.Notify(c.pipe, syscall.SIGPIPE)
		}
	}
	if proc.NotifyCostly {
		go catch()
	} else {
		catch()
	}
	return c
}

// Signals delivers the forwarded signals: Config.Signals.
func (c *SignalCatcher) Signals() <-chan os.Signal { return c.ch }

// Ready is closed once the signals are caught: Config.SignalsReady.
func (c *SignalCatcher) Ready() <-chan struct{} { return c.ready }

// Pipe delivers SIGPIPE, unless it was ignored when retry started.
func (c *SignalCatcher) Pipe() <-chan os.Signal { return c.pipe }

// StopPipe stops delivering SIGPIPE to Pipe. Once it returns, every
// SIGPIPE received before is in Pipe or has been read. Where retry writes
// its output through descriptors of its own (proc.OwnOutput), which a
// write without a reader does not kill it through, SIGPIPE stays caught,
// and LatePipe tells of one received after; elsewhere a later write to an
// output without a reader kills retry again, at once.
func (c *SignalCatcher) StopPipe() {
	<-c.ready // a Stop before the Notify would be undone
	if proc.OwnOutputs {
		proc.FlushNotify()
		return
	}
	proc.StopNotify(c.pipe)
}

// LatePipe reports whether SIGPIPE was received after StopPipe, and the
// Pipe reader has read what came before: a write of retry's own that
// found no reader then (or any other write into a closed pipe).
func (c *SignalCatcher) LatePipe() bool {
	if !proc.OwnOutputs {
		return false
	}
	proc.FlushNotify()
	return len(c.pipe) > 0
}

// Stop stops catching the signals. A process that exits next need not
// call it.
func (c *SignalCatcher) Stop() {
	<-c.ready
	proc.StopNotify(c.ch)
	proc.StopNotify(c.pipe)
}
