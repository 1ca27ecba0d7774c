package cmd

import (
	"context"
	"errors"
	"os"
	"os/signal"
	"sync"
	"sync/atomic"
	"syscall"

	"github.com/b0a38808/retry/internal/stdio"
	"github.com/b0a38808/retry/runner"
)

// ownOutput lets retry outlive a write of its own to a stdout or stderr
// whose reader has gone (`retry ... 2>&1 | head -0`). Such a write would
// kill retry by SIGPIPE at once, before it wrote the report. While the
// watch runs, the write fails instead and the operation is cancelled: no
// other attempt starts and the running one is stopped. Once the report is
// written, retry dies by SIGPIPE, as the write would have made it.
//
// SIGPIPE is caught, not ignored: a caught signal is reset to its default
// action when an attempt starts, so the attempts still die from it. A
// SIGPIPE that was ignored when retry started stays ignored, and then
// nothing is watched: retry's writes fail, as they did before. The
// runner.SignalCatcher catches it with the forwarded signals, in the
// background; the runner waits for that before it does anything that can
// write (runner.Config.SignalsReady).
type ownOutput struct {
	cancel  context.CancelCauseFunc
	signals *runner.SignalCatcher
	sigs    <-chan os.Signal // nil: nothing is watched
	quit    chan struct{}
	done    chan struct{}
	gone    atomic.Bool
	once    sync.Once
}

// watchOwnOutput starts the watch of the SIGPIPE that signals catches. The
// operation must run with the returned context, which the watch cancels
// when retry's output is gone.
func watchOwnOutput(ctx context.Context, signals *runner.SignalCatcher) (context.Context, *ownOutput) {
	ctx, cancel := context.WithCancelCause(ctx)
	w := &ownOutput{cancel: cancel}
	if signal.Ignored(syscall.SIGPIPE) {
		return ctx, w
	}
	w.signals, w.sigs = signals, signals.Pipe()
	w.quit, w.done = make(chan struct{}), make(chan struct{})
	go func() {
		defer close(w.done)
		for {
			select {
			case <-w.sigs:
				w.check()
			case <-w.quit:
				return
			}
		}
	}()
	return ctx, w
}

// check is called when retry has received SIGPIPE. The signal may come
// from a write into an attempt's stdin that the attempt had closed: only
// a stdout or stderr without a reader means that retry's output is gone.
func (w *ownOutput) check() {
	if stdio.ReaderGone(os.Stdout) || stdio.ReaderGone(os.Stderr) {
		w.lose()
	}
}

// wrote is told of the error of a write to retry's stderr or stdout.
func (w *ownOutput) wrote(err error) {
	if w != nil && errors.Is(err, syscall.EPIPE) {
		w.lose()
	}
}

func (w *ownOutput) lose() {
	if w.sigs == nil || w.gone.Swap(true) {
		return
	}
	w.cancel(errors.New("nothing reads retry's output any more"))
}

// stop ends the watch, so that a later write to a stdout or stderr
// without a reader kills retry again, and reports whether retry's output
// was gone while it ran. It may be called more than once.
func (w *ownOutput) stop() (gone bool) {
	w.once.Do(func() {
		if w.sigs == nil {
			return
		}
		// Once StopPipe returns, every SIGPIPE received before is in
		// w.sigs or has been read.
		w.signals.StopPipe()
		close(w.quit)
		<-w.done
		select {
		case <-w.sigs:
			w.check()
		default:
		}
	})
	return w.gone.Load()
}
