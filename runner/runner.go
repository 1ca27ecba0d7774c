// Package runner runs a command until it succeeds, fails permanently, runs
// out of attempts or time, or is cancelled, waiting a capped, jittered
// exponential delay between attempts. It is a library: it prints nothing
// and never exits; the clock, the waits and the randomness are injectable.
// It is API: other Go programs may import it, as they may its
// sub-packages and exitcodes.
package runner

import (
	"context"
	"errors"
	"io"
	"math/rand/v2"
	"os"
	"syscall"
	"time"

	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/internal/stdio"
	"github.com/b0a38808/retry/runner/backoff"
	"github.com/b0a38808/retry/runner/classify"
	"github.com/b0a38808/retry/runner/clock"
)

// Config describes one operation.
type Config struct {
	// Command is the program and its arguments.
	Command []string
	// Env is the environment of every attempt, before the RETRY_*
	// variables are added; nil means the current process's.
	Env []string
	// CMessages runs every attempt with its messages in English (the C
	// locale), for rules that read them; the rest of the locale stays.
	CMessages bool
	// Attempts is the number of attempts, the first included; 0 means
	// unlimited (a Deadline is then expected).
	Attempts int
	// UntilFailure runs the command again while it succeeds, and ends
	// the operation at the first run that does not (outcome Failed), or
	// when the attempts or the deadline run out first (Passed): flake
	// hunting. The waits between runs are Backoff's; no budget is asked
	// for a run after a success, and OnRetry never runs.
	UntilFailure bool
	// Start is when the operation began, for its elapsed time; the zero
	// time means when Run is called.
	Start time.Time
	// Deadline bounds the whole operation; the zero time means none.
	Deadline time.Time
	// Splay, when above 0, waits a uniform random time in [0, Splay),
	// drawn from Rand, before the first attempt and before the budget is
	// asked for it; the wait counts against the deadline. An operation
	// with Depth above 0 does not splay.
	Splay time.Duration
	// Timeout bounds one attempt; 0 means none.
	Timeout time.Duration
	// KillAfter is the grace between StopSignal and SIGKILL.
	KillAfter time.Duration
	// StopSignal ends an attempt at its timeout, the deadline, or
	// cancellation; 0 means SIGTERM.
	StopSignal syscall.Signal
	// Backoff chooses the waits between attempts.
	Backoff backoff.Policy
	// Rand is the source of jitter; nil means a randomly seeded one.
	Rand *rand.Rand
	// Rules classifies each attempt; nil means the built-in rules.
	Rules *classify.Rules
	// IdempotencyKey is passed to every attempt; empty means a new
	// random UUID.
	IdempotencyKey string
	// Depth is how many retry operations enclose this one (0 at the top);
	// attempts see Depth+1 in RETRY_DEPTH.
	Depth int
	// Clock tells the time and waits; nil means the real clock.
	Clock clock.Clock
	// Stdin, Stdout and Stderr are the attempts' standard streams; nil
	// means the current process's.
	Stdin          *os.File
	Stdout, Stderr io.Writer
	// StdinMode says what each attempt reads: by default (replay) the
	// same bytes from the start. StdoutMode says whether each attempt's
	// output streams through (the default) or only the last attempt's is
	// written out. See StdinMode and OutputMode.
	StdinMode  StdinMode
	StdoutMode OutputMode
	// StderrMode does for each attempt's stderr what StdoutMode does for
	// its stdout; retry's own lines, and the OnRetry command's output, go
	// to Stderr as they come whatever the mode.
	StderrMode OutputMode
	// Signals delivers the signals retry receives (SignalCatcher.Signals):
	// each is forwarded to the running attempt's process group; INT,
	// TERM, HUP and QUIT also cancel (see Cancels), and a second INT or
	// TERM kills the group at once. Nil: none.
	Signals <-chan os.Signal
	// SignalsReady, when not nil, is closed once Signals is caught
	// (proc.Notify has returned): Run does nothing of the operation
	// before that (no attempt, no Observer call), so the caller may catch
	// the signals on another goroutine while Run sets up, and still no
	// attempt runs while a signal meant for it would have its default
	// effect on retry.
	SignalsReady <-chan struct{}
	// Terminal, when not nil, is the controlling terminal (retry's stdin):
	// each attempt has its foreground while it runs, retry between
	// attempts; an attempt that stops (Ctrl-Z) stops retry's job too; and
	// an attempt that dies from SIGINT or SIGQUIT (Ctrl-C, Ctrl-\) there
	// cancels the operation. The caller must ignore SIGTTOU.
	Terminal *os.File
	// OnRetry, when not empty, is a shell command (proc.Shell) run after
	// each failed attempt that another attempt will follow, before the
	// wait: in a process group of its own, with the null device as stdin
	// and Stderr for its output, the failed attempt's RETRY_* environment
	// plus RETRY_EXIT_CODE or RETRY_SIGNAL and RETRY_CLASS, bounded by the
	// deadline as an attempt is. Attempt.Hook records it.
	OnRetry string
	// OnRetryStop: an OnRetry that fails ends the operation (outcome
	// Permanent) instead of being recorded and passed over.
	OnRetryStop bool
	// Observer hears about each attempt as it starts and ends; optional.
	// When it is also a Warner, it hears warnings too.
	Observer Observer
	// Budget, when set, is the retry budget shared with other
	// operations: the first attempt is counted in it and each retry
	// must be allowed by it; an empty budget ends the operation with
	// outcome Budget. Waiting for the budget counts against the
	// deadline, as the waits between attempts do.
	Budget RetryBudget
	// MaxConcurrent, with Budget, is how many attempts of the budget may
	// run at once; each attempt first waits for a slot, within the
	// deadline. 0 means no cap.
	MaxConcurrent int
	// BudgetUnavailable is what the operation does when Budget's store
	// fails (a *budget.StoreError): by default it goes on without it.
	BudgetUnavailable StoreFailure
	// BudgetScope says where Budget keeps its slots: its state
	// directory, or its store's address without a password. Budgets of
	// one name and one scope share their slots, and an attempt that
	// holds one passes it down (RETRY_SLOT) to a nested operation of the
	// same budget. Empty: the slot is not passed down.
	BudgetScope string
	// EnclosingSlots are the slots the enclosing attempts run in
	// (RETRY_SLOT, read by Nest; see SlotID). When one is a slot of this
	// operation's budget, each attempt runs in it: it neither waits for
	// nor takes a slot of its own.
	EnclosingSlots []string
}

// Observer hears about the attempts of an operation as they happen.
type Observer interface {
	// AttemptStarted is called just before an attempt starts.
	AttemptStarted(a *Attempt, max int)
	// AttemptFinished is called when an attempt has been classified.
	// When retrying is true, a.Delay holds the wait before the next one.
	AttemptFinished(a *Attempt, max int, retrying bool)
}

// SignalError is a cancellation cause naming the signal that cancelled
// the operation; give it to context.WithCancelCause's cancel function.
type SignalError struct {
	Signal syscall.Signal
}

// Error describes the cancellation.
func (e *SignalError) Error() string { return "cancelled by " + proc.SignalName(e.Signal) }

// cancelSignal returns the signal that cancelled ctx, or 0.
func cancelSignal(ctx context.Context) syscall.Signal {
	var se *SignalError
	if errors.As(context.Cause(ctx), &se) {
		return se.Signal
	}
	return 0
}

// ErrNoCommand is returned by Run for an empty Command.
var ErrNoCommand = errors.New("runner: no command")

// Run runs the operation that cfg describes. Its error reports a bad
// Config, a budget whose concurrency slots cannot be used, or retry's own
// failure to handle the attempts' input or output (the Result then holds
// the attempts that ran); a failing command is described by the Result.
// Cancelling ctx stops the running attempt with the stop signal and
// starts no other.
func Run(ctx context.Context, cfg Config) (*Result, error) {
	if len(cfg.Command) == 0 {
		return nil, ErrNoCommand
	}
	if cfg.Backoff.Base <= 0 || cfg.Backoff.Cap < 0 || cfg.Backoff.ResetAfter < 0 {
		return nil, backoff.ErrInvalid
	}
	ctx, cancel := context.WithCancelCause(ctx)
	defer cancel(nil)
	r := newRun(cfg, cancel)
	streams, err := stdio.Open(stdio.Config{Stdin: r.cfg.Stdin, StdinMode: cfg.StdinMode, Stdout: r.cfg.Stdout, StdoutMode: cfg.StdoutMode, Stderr: r.cfg.Stderr, StderrMode: cfg.StderrMode})
	if err != nil {
		return nil, err
	}
	defer streams.Close()
	r.streams = streams
	defer r.signals.listen(cfg.Signals)()
	r.signals.caught()
	res := r.loop(ctx)
	// No other attempt starts: the last one's held output goes out.
	if err := streams.Finish(); r.err == nil {
		r.err = err
	}
	return res, r.err
}

type run struct {
	cfg     Config
	clock   clock.Clock
	rand    *rand.Rand
	rules   *classify.Rules
	env     environment
	res     *Result
	err     error // why the loop stopped without an outcome
	streams *stdio.Streams
	signals *forwarder
	term    *proc.Terminal // nil without a terminal
	slot    string         // the running attempt's slot (SlotID), or ""
	warned  map[string]bool
}

func newRun(cfg Config, cancel context.CancelCauseFunc) *run {
	r := &run{cfg: cfg, clock: cfg.Clock, rand: cfg.Rand, rules: cfg.Rules, signals: newForwarder(cancel, cfg.SignalsReady)}
	if r.cfg.Stdin == nil {
		r.cfg.Stdin = os.Stdin
	}
	if r.cfg.Stdout == nil {
		r.cfg.Stdout = os.Stdout
	}
	if r.cfg.Stderr == nil {
		r.cfg.Stderr = os.Stderr
	}
	if cfg.Terminal != nil {
		r.term = proc.NewTerminal(cfg.Terminal)
	}
	if r.clock == nil {
		r.clock = clock.Real{}
	}
	if r.rand == nil {
		r.rand = rand.New(rand.NewPCG(rand.Uint64(), rand.Uint64()))
	}
	if r.rules == nil {
		r.rules = &classify.Rules{}
	}
	if r.cfg.StopSignal == 0 {
		r.cfg.StopSignal = syscall.SIGTERM
	}
	if r.cfg.Env == nil {
		r.cfg.Env = os.Environ()
	}
	if cfg.CMessages {
		r.cfg.Env = cMessages(r.cfg.Env)
	}
	key := cfg.IdempotencyKey
	if key == "" {
		key = newUUID()
	}
	r.env = newEnvironment(r.cfg.Env, cfg.Attempts, key, cfg.Deadline, cfg.Depth+1)
	start := cfg.Start
	if start.IsZero() {
		start = r.clock.Now()
	}
	r.res = &Result{Started: start, Deadline: cfg.Deadline, IdempotencyKey: key, UntilFailure: cfg.UntilFailure}
	return r
}
