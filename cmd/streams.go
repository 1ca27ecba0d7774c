package cmd

import (
	"os"
	"os/signal"
	"syscall"

	"github.com/mattn/go-isatty"
	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/stdio"
)

// streamOptions are the flags that say how stdin and stdout behave across
// attempts.
type streamOptions struct {
	stdin, stdout string
}

func (o *streamOptions) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.stdin, "stdin", "replay", "what each attempt reads, `MODE`: replay (the same bytes from the start; a terminal is never replayed), inherit or null")
	fs.StringVar(&o.stdout, "stdout", "stream", "how each attempt's stdout goes out, `MODE`: stream passes it through; final writes only the last attempt's")
}

// apply checks the flags and sets them in cfg.
func (o *streamOptions) apply(cfg *runner.Config) error {
	var err error
	if cfg.StdinMode, err = stdio.ParseStdinMode(o.stdin); err != nil {
		return usagef("", "--stdin: %s", err)
	}
	if cfg.StdoutMode, err = stdio.ParseStdoutMode(o.stdout); err != nil {
		return usagef("", "--stdout: %s", err)
	}
	return nil
}

// attachTerminal makes the attempts take turns with retry at the
// terminal's foreground when stdin is a terminal. What is typed there goes
// to the running attempt: a terminal cannot be replayed.
func attachTerminal(cfg *runner.Config) {
	fd := os.Stdin.Fd()
	if !isatty.IsTerminal(fd) && !isatty.IsCygwinTerminal(fd) {
		return
	}
	cfg.Terminal = os.Stdin
	if cfg.StdinMode == stdio.StdinReplay {
		cfg.StdinMode = stdio.StdinInherit
	}
}

// signalCatcher catches the signals retry forwards to its attempts (see
// runner.Config.Signals). A signal ignored when retry started stays
// ignored, for retry and its attempts, as with timeout(1): `nohup retry
// ...` and background jobs of a shell without job control keep their
// SIGHUP and SIGINT ignored. (Go respects only these two; see the manual.)
//
// signal.Notify takes about 0.3 ms: it starts the runtime's signal thread
// and waits for it once per signal. catchSignals runs it on a goroutine of
// its own, so that it overlaps the flag parsing and checks and the set-up
// of the operation on a second core; the runner waits for it
// (runner.Config.SignalsReady) before it starts the first attempt, so no
// attempt ever runs while one of these signals still has its default
// action.
//
// It catches SIGPIPE too, on a channel of its own, for the output watch
// (outputwatch.go), unless SIGPIPE was ignored when retry started.
type signalCatcher struct {
	ch    chan os.Signal
	pipe  chan os.Signal
	ready chan struct{}
}

// catchSignals starts catching the forwarded signals and SIGPIPE, and
// ignoring SIGTTOU and SIGTTIN, in the background.
func catchSignals() *signalCatcher {
	c := &signalCatcher{ch: make(chan os.Signal, 16), pipe: make(chan os.Signal, 1), ready: make(chan struct{})}
	go func() {
		defer close(c.ready)
		var sigs []os.Signal
		for _, sig := range forwardedSignals() {
			if !signal.Ignored(sig) {
				sigs = append(sigs, sig)
			}
		}
		signal.Notify(c.ch, sigs...)
		ignoreJobControl()
		if !signal.Ignored(syscall.SIGPIPE) {
			signal.Notify(c.pipe, syscall.SIGPIPE)
		}
	}()
	return c
}

// stop stops catching the signals. retry itself exits instead, which
// saves the same round trips to the signal thread again.
func (c *signalCatcher) stop() {
	<-c.ready
	signal.Stop(c.ch)
	signal.Stop(c.pipe)
}
