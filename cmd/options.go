package cmd

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"strconv"
	"syscall"
	"time"

	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/internal/stdio"
	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/backoff"
	"github.com/b0a38808/retry/runner/classify"
)

// options holds the flags as the user typed them; config turns them into
// a runner.Config, checking every value before anything runs.
type options struct {
	attempts, until, deadline, timeout, killAfter, stopSignal string
	splay                                                     string
	delay, maxDelay, jitter, seed                             string
	resetAfter                                                string
	idempotencyKey                                            string
	quiet                                                     bool
	summaryFile, summary                                      string
	redact                                                    []string
	budget                                                    budgetOptions
	nesting                                                   nestingOptions
	classify                                                  classifyOptions
	streams                                                   streamOptions
	hook                                                      hookOptions
	operate                                                   operateOptions

	signals *runner.SignalCatcher // started before the flags are parsed
	fs      *pflag.FlagSet        // tells which flags were given
	args    []string              // the command line fs parses, to tell -t from --timeout
}

func newOptions(signals *runner.SignalCatcher) *options { return &options{signals: signals} }

// register declares the flags on fs. Values are kept as text so that
// every bad value gets one clear message in config.
func (o *options) register(fs *pflag.FlagSet) {
	fs.StringVarP(&o.attempts, "attempts", "a", "3", "make `N` attempts in all, the first included; 0 means unlimited and needs --deadline")
	fs.StringVar(&o.until, "until", "success", "run until the command does `WHAT`: success (retrying its failures) or fail (running it again while it succeeds, and stopping at its first failure: flake hunting)")
	fs.StringVarP(&o.deadline, "deadline", "d", "", "bound the whole operation (attempts, waits and everything between) to `DUR`")
	fs.StringVarP(&o.timeout, "timeout", "t", "", "bound each attempt to `DUR`, or to the time left before the deadline when that is less")
	fs.StringVar(&o.killAfter, "kill-after", "10s", "wait `DUR` between the stop signal and SIGKILL")
	fs.StringVar(&o.stopSignal, "stop-signal", "TERM", "end an attempt at its timeout or the deadline with signal `SIG`, a name or a number")
	fs.StringVar(&o.splay, "splay", "", "wait a random time below `DUR` before the first attempt, within the deadline, so that a job started on many machines at once does not start as one herd")
	fs.StringVar(&o.delay, "delay", "1s", "start the exponential backoff at `DUR`; must be > 0")
	fs.StringVar(&o.maxDelay, "max-delay", "30s", "cap the backoff at `DUR`; 0 means no wait")
	fs.StringVar(&o.jitter, "jitter", "full", "randomness of the waits, `MODE`: full, equal or none")
	fs.StringVar(&o.seed, "seed", "", "seed the random waits and the --splay with `N`, to reproduce a schedule (never one seed for a whole fleet: its splays would be one herd)")
	fs.StringVar(&o.resetAfter, "reset-after", "", "start the backoff over after an attempt that ran at least `DUR` before it failed")
	fs.StringVar(&o.idempotencyKey, "idempotency-key", "", "pass `KEY` to every attempt as RETRY_IDEMPOTENCY_KEY (default: a random UUID)")
	fs.BoolVarP(&o.quiet, "quiet", "q", false, "print no progress lines and no auto summary")
	fs.StringVar(&o.summary, "summary", "auto", "print the summary on stderr in `MODE`: auto (one line after a retry or a failure), text, json or none")
	fs.StringVar(&o.summaryFile, "summary-file", "", "write the JSON report to `PATH` (atomically, mode 0600)")
	repeatableVar(fs, &o.redact, "redact", "also hide text matching `REGEX` in progress lines, summaries and the report (repeatable)")
	o.budget.register(fs)
	o.nesting.register(fs)
	o.classify.register(fs)
	o.streams.register(fs)
	o.hook.register(fs)
	o.operate.register(fs)
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Value.Type() == "string" {
			f.Value = textValue{f.Value}
		}
	})
	o.fs = fs
}

// textValue is a flag kept as text whose help shows its default as the
// user types it, (default 3), where pflag quotes a string's: (default "3").
type textValue struct{ pflag.Value }

// Type names the value for the help and for shell completion.
func (textValue) Type() string { return "text" }

// config checks the flags and returns the operation they describe. It
// checks every value whether or not a command was given: the caller
// says that one is missing once the values are known to be good.
func (o *options) config(command []string, now time.Time) (runner.Config, error) {
	cfg := runner.Config{Command: command, Start: now, Rules: &classify.Rules{}}
	var err error
	if cfg.Attempts, err = parseCount("--attempts", o.attempts); err != nil {
		return cfg, err
	}
	deadline, err := parseDuration("--deadline", o.deadline)
	if err != nil {
		return cfg, o.debianHint(err, "--deadline", o.deadline)
	}
	if deadline > 0 {
		cfg.Deadline = now.Add(deadline)
	}
	if cfg.Timeout, err = parseDuration("--timeout", o.timeout); err != nil {
		return cfg, o.debianHint(err, "--timeout", o.timeout)
	}
	if cfg.Splay, err = parseSplay(o.splay, deadline, o.deadline); err != nil {
		return cfg, err
	}
	if cfg.KillAfter, err = parseDuration("--kill-after", o.killAfter); err != nil {
		return cfg, err
	}
	if cfg.StopSignal, err = parseSignal("--stop-signal", o.stopSignal); err != nil {
		return cfg, err
	}
	if cfg.Backoff.Base, err = parseDuration("--delay", o.delay); err != nil {
		return cfg, o.debianHint(err, "--delay", o.delay)
	}
	if cfg.Backoff.Base <= 0 {
		return cfg, usagef("use --max-delay 0 for no wait between attempts", "--delay: must be greater than 0, got %q", o.delay)
	}
	if cfg.Backoff.Cap, err = parseDuration("--max-delay", o.maxDelay); err != nil {
		return cfg, err
	}
	if cfg.Backoff.Jitter, err = backoff.ParseJitter(o.jitter); err != nil {
		hint := ""
		if digits(o.jitter) {
			hint = debianJitterHint
		}
		return cfg, usagef(hint, "--jitter: %s", err)
	}
	if cfg.Backoff.ResetAfter, err = parseResetAfter(o.resetAfter); err != nil {
		return cfg, err
	}
	if o.seed != "" {
		seed, err := strconv.ParseUint(o.seed, 10, 64)
		if err != nil {
			return cfg, usagef("", "--seed: must be a non-negative integer, got %q", o.seed)
		}
		cfg.Rand = rand.New(rand.NewPCG(seed, seed))
	}
	if err := o.applyUntil(&cfg); err != nil {
		return cfg, err
	}
	if err := o.streams.apply(&cfg); err != nil {
		return cfg, err
	}
	if err := o.hook.apply(&cfg); err != nil {
		return cfg, err
	}
	cfg.IdempotencyKey = o.idempotencyKey
	cfg.Depth = runner.ReadDepth(os.Getenv)
	if err := o.budget.check(os.Getenv); err != nil {
		return cfg, err
	}
	if err := o.nesting.apply(&cfg, os.Getenv); err != nil {
		return cfg, err
	}
	// Inside another retry, its deadline bounds unlimited attempts too.
	if cfg.Attempts == 0 && cfg.Deadline.IsZero() && o.deadline != "" {
		return cfg, usagef("give --deadline a duration greater than 0, such as -d 1h", "--attempts 0 (unlimited) needs a deadline, and --deadline %s is none", o.deadline)
	}
	if cfg.Attempts == 0 && cfg.Deadline.IsZero() {
		return cfg, usagef("add --deadline DUR to bound an unlimited number of attempts", "--attempts 0 (unlimited) needs --deadline")
	}
	return cfg, nil
}

// parseCount reads a non-negative integer flag value.
func parseCount(flag, s string) (int, error) {
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 {
		return 0, usagef("", "%s: must be a non-negative integer, got %q", flag, s)
	}
	return n, nil
}

// parseDuration reads a non-negative duration flag value: a Go duration
// ("1m30s", "250ms") or a number of days ("2d"). A number without a unit
// is refused, the fix shown; "0" needs none. Empty, a flag left out,
// means 0 (a flag given an empty value is refused before: refuseEmpty).
func parseDuration(flag, s string) (time.Duration, error) {
	d, err := readDuration(s)
	var bare *noUnitError
	switch {
	case errors.As(err, &bare):
		return 0, usagef(durationHint, "%s: %q has no unit: write %ss", flag, s, s)
	case err != nil:
		return 0, usagef(durationHint, "%s: %s, got %q", flag, err, s)
	}
	return d, nil
}

const durationHint = "a duration is a number and its unit (ms, s, m, h or d), such as 250ms, 30s, 1m30s or 2d; 0 alone needs none"

// parseResetAfter reads --reset-after: left out (empty) means never;
// given, it must be a duration greater than 0.
func parseResetAfter(s string) (time.Duration, error) {
	d, err := parseDuration("--reset-after", s)
	if err != nil {
		return 0, err
	}
	if s != "" && d <= 0 {
		return 0, usagef("leave --reset-after out for a backoff that never starts over", "--reset-after: must be greater than 0, got %q", s)
	}
	return d, nil
}

// parseSplay reads --splay: the random wait before the first attempt
// stays inside the deadline, so a splay longer than the deadline (0:
// none) is bad input.
func parseSplay(s string, deadline time.Duration, deadlineText string) (time.Duration, error) {
	d, err := parseDuration("--splay", s)
	if err != nil {
		return 0, err
	}
	if deadline > 0 && d > deadline {
		return 0, usagef("the splay counts against the deadline: give --splay at most the deadline, and less to leave time for the attempts", "--splay %s is longer than --deadline %s", s, deadlineText)
	}
	return d, nil
}

// parseSignal reads a signal flag value.
func parseSignal(flag, s string) (syscall.Signal, error) {
	sig, err := proc.ParseSignal(s)
	if err != nil {
		return 0, usagef("use a name such as TERM, INT or KILL, or a number", "%s: %s", flag, err)
	}
	return sig, nil
}

// run runs the operation and renders what happened.
func (o *options) run(ctx context.Context, args []string, stdout, stderr io.Writer) error {
	if o.signals == nil {
		o.signals = runner.CatchSignals()
	}
	ctx, watch := watchOwnOutput(ctx, o.signals)
	defer watch.stop()
	cfg, err := o.config(args, time.Now())
	if err != nil {
		return err
	}
	if cfg.Rules, err = o.classify.rules(stdout, stderr, cfg.StdoutMode == stdio.OutputFinal, cfg.StderrMode == stdio.OutputFinal); err != nil {
		return err
	}
	cfg.Rules.CheckCommand(cfg.Command)
	cfg.CMessages = o.classify.messagesInC()
	out, err := o.reporter(cfg.Command, stderr, os.Getenv, true)
	if err != nil {
		return err
	}
	// Checked after the flags' values, so that a bad value is not hidden
	// behind it: `retry -a x` says what is wrong with x.
	if len(cfg.Command) == 0 {
		return usagef("usage: "+usageLine, "missing command")
	}
	out.deadline = cfg.Deadline
	out.exits.warnOverlap(stderr, cfg.Rules)
	closeBudget, err := o.budget.open(&cfg, os.Getenv)
	if err != nil {
		return err
	}
	defer closeBudget()
	attachTerminal(&cfg)
	// The signals are being caught meanwhile: the runner waits for that
	// before it starts the first attempt.
	cfg.Signals, cfg.SignalsReady = o.signals.Signals(), o.signals.Ready()
	cfg.Stdout, cfg.Stderr = stdout, stderr
	cfg.Observer = o.nesting.observer(out, stderr, o.quiet)
	out.watch = watch
	res, err := runner.Run(ctx, cfg)
	// From here on, a write to a stdout or stderr without a reader kills
	// retry again: the report is written before the summary.
	gone := watch.stop()
	if err != nil && !(gone && errors.Is(err, syscall.EPIPE)) {
		// retry itself failed (exit 125). When the operation had come to
		// an end first (the held output of --stdout final could not be
		// written out), its report still tells how.
		if res != nil && res.Outcome != "" {
			out.finish(res, cfg.Attempts, int(exitcodes.Failed))
		}
		var held *stdio.StreamError
		if errors.Is(err, stdio.ErrOutputLost) && errors.As(err, &held) {
			return &usageError{msg: err.Error(), hint: "make room in $TMPDIR, or point TMPDIR at a larger file system; or run without " + heldFlags(held.Stream, cfg)}
		}
		return err
	}
	code, sig := exitcodes.For(ending(res, gone, out.exits))
	out.finish(res, cfg.Attempts, int(code))
	return &exitStatus{code: code, signal: sig}
}

// ending extracts from res what the exit status depends on; outputGone
// says that retry's own output lost its reader meanwhile; chosen are
// --flaky-exit and --exhausted-exit.
func ending(res *runner.Result, outputGone bool, chosen exitChoices) exitcodes.Ending {
	e := exitcodes.Ending{
		Succeeded:     res.Outcome == runner.Succeeded,
		Passed:        res.Outcome == runner.Passed,
		Deadline:      res.Outcome == runner.Deadline,
		Cancelled:     res.Outcome == runner.Cancelled,
		CancelSignal:  int(res.Signal),
		OutputGone:    outputGone,
		Flaky:         flaky(res),
		Exhausted:     exhausted(res),
		FlakyExit:     chosen.flaky,
		ExhaustedExit: chosen.exhausted,
	}
	if last := res.Last(); last != nil {
		e.Ran = true
		e.Last = last.Exit
	}
	return e
}
