package cmd

import (
	"fmt"
	"io"
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/budget"
)

// scaleOptions are the flags that keep many retries safe together
// (docs/at-scale.md): nesting, the shared retry budget and the concurrency
// cap. The outer deadline, RETRY_DEADLINE, is honoured without a flag.
type scaleOptions struct {
	fs            *pflag.FlagSet
	budget        string
	budgetRatio   string
	maxConcurrent string
	stateDir      string
	nested        bool

	maxSlots int // --max-concurrent, checked
	policy   budget.Policy
	note     string // said once when a nested retry makes a single attempt
}

// register declares the flags on fs.
func (o *scaleOptions) register(fs *pflag.FlagSet) {
	o.fs = fs
	fs.StringVar(&o.budget, "budget", "", "share the retry budget `NAME` with every retry on this machine that names it: retries at most --budget-ratio of first attempts, plus 10 a minute")
	fs.StringVar(&o.budgetRatio, "budget-ratio", "0.1", "allow `R` retries per first attempt in the last minute, on top of 10 a minute")
	fs.StringVar(&o.maxConcurrent, "max-concurrent", "", "with --budget: let at most `N` attempts of the budget run at once on this machine; the wait counts against the deadline")
	fs.StringVar(&o.stateDir, "state-dir", "", "with --budget: keep budgets in `DIR` (default $XDG_STATE_HOME/retry, else ~/.local/state/retry)")
	fs.BoolVar(&o.nested, "nested", false, "retry here too when run inside another retry (RETRY_DEPTH >= 1), which otherwise makes a single attempt")
}

// configure checks the flags and applies to cfg what an enclosing retry
// passes down: its deadline, its idempotency key, and nesting. getenv
// reads the environment.
func (o *scaleOptions) configure(cfg *runner.Config, getenv func(string) string) error {
	if o.budget == "" {
		for _, name := range []string{"budget-ratio", "max-concurrent", "state-dir"} {
			if o.fs != nil && o.fs.Changed(name) {
				return usagef("budgets and concurrency caps are shared under a name: add --budget NAME", "--%s needs --budget", name)
			}
		}
	} else {
		if err := budget.ValidateName(o.budget); err != nil {
			return usagef("", "--budget: %s", err)
		}
		ratio, err := strconv.ParseFloat(o.budgetRatio, 64)
		if err != nil || math.IsNaN(ratio) || ratio < 0 || ratio > budget.MaxRatio {
			return usagef("0.1 lets one retry through for every ten first attempts", "--budget-ratio: must be a number from 0 to %d, got %q", budget.MaxRatio, o.budgetRatio)
		}
		o.policy = budget.DefaultPolicy()
		o.policy.Ratio = ratio
		if o.maxConcurrent != "" {
			n, err := strconv.Atoi(o.maxConcurrent)
			if err != nil || n < 1 || n > budget.MaxSlots {
				return usagef("", "--max-concurrent: must be an integer from 1 to %d, got %q", budget.MaxSlots, o.maxConcurrent)
			}
			o.maxSlots = n
		}
	}

	// Only an enclosing retry's deadline counts: one left in the
	// environment by hand, without RETRY_DEPTH, is not this operation's.
	if cfg.Depth >= 1 {
		if outer, ok, err := outerDeadline(getenv(runner.EnvDeadline)); err != nil {
			return usagef("an enclosing retry sets it; unset it to run without the outer deadline", "%s: %s", runner.EnvDeadline, err)
		} else if ok && (cfg.Deadline.IsZero() || outer.Before(cfg.Deadline)) {
			cfg.Deadline = outer
		}
	}

	// The enclosing retry's operation is this one's too: its retries
	// must reach the server with the same key, or a retried outer attempt
	// would look like a new request.
	if key := getenv(runner.EnvIdempotencyKey); cfg.Depth >= 1 && cfg.IdempotencyKey == "" && key != "" {
		cfg.IdempotencyKey = key
	}

	if cfg.Depth >= 1 && !o.nested && cfg.Attempts != 1 {
		asked := "unlimited"
		if cfg.Attempts > 0 {
			asked = strconv.Itoa(cfg.Attempts)
		}
		o.note = fmt.Sprintf("nested in another retry (%s=%d): making 1 attempt, not %s; the outer retry does the retrying (--nested retries at both layers)",
			runner.EnvDepth, cfg.Depth, asked)
		cfg.Attempts = 1
	}
	return nil
}

// outerDeadline parses RETRY_DEADLINE as an enclosing retry sets it:
// RFC 3339, in UTC with milliseconds. ok is false when it is not set.
func outerDeadline(s string) (t time.Time, ok bool, err error) {
	if s == "" {
		return time.Time{}, false, nil
	}
	t, err = time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("must be an RFC 3339 time such as 2026-11-30T07:00:30.000Z, got %q", s)
	}
	return t, true, nil
}

// open opens the budget, when one is named, and puts it in cfg. The
// returned function closes it.
func (o *scaleOptions) open(cfg *runner.Config, getenv func(string) string) (func(), error) {
	if o.budget == "" {
		return func() {}, nil
	}
	dir := o.stateDir
	if dir == "" {
		var err error
		if dir, err = defaultStateDir(getenv); err != nil {
			return nil, usagef("choose one with --state-dir DIR", "--budget: no state directory: %s", err)
		}
	}
	b, err := budget.Open(dir, o.budget, o.policy, nil)
	if err != nil {
		return nil, usagef("choose another with --state-dir DIR, or run without --budget", "--budget: %s", err)
	}
	cfg.Budget, cfg.MaxConcurrent = b, o.maxSlots
	return func() { b.Close() }, nil
}

// defaultStateDir returns $XDG_STATE_HOME/retry (the XDG Base Directory
// specification ignores a relative XDG_STATE_HOME), else
// ~/.local/state/retry; on Windows, %LocalAppData%\retry.
func defaultStateDir(getenv func(string) string) (string, error) {
	if x := getenv("XDG_STATE_HOME"); x != "" && filepath.IsAbs(x) {
		return filepath.Join(x, "retry"), nil
	}
	if runtime.GOOS == "windows" {
		if x := getenv("LocalAppData"); x != "" {
			return filepath.Join(x, "retry"), nil
		}
	}
	home := getenv("HOME")
	if home == "" || !filepath.IsAbs(home) {
		var err error
		if home, err = os.UserHomeDir(); err != nil {
			return "", err
		}
	}
	return filepath.Join(home, ".local", "state", "retry"), nil
}

// observer wraps the progress printer: it says once why a nested retry
// does not retry, when its attempt fails, and prints warnings.
func (o *scaleOptions) observer(inner runner.Observer, w io.Writer, quiet bool) runner.Observer {
	return &scaleObserver{Observer: inner, w: w, note: o.note, quiet: quiet}
}

// scaleObserver is the Observer that observer returns.
type scaleObserver struct {
	runner.Observer
	w     io.Writer
	note  string
	quiet bool
}

// AttemptFinished says, before the first failed attempt's line, that a
// nested retry makes a single attempt: nothing is said when it succeeds.
func (s *scaleObserver) AttemptFinished(a *runner.Attempt, max int, retrying bool) {
	if s.note != "" && !s.quiet && a.Class.String() != "success" {
		errorf(s.w, "%s", s.note)
		s.note = ""
	}
	s.Observer.AttemptFinished(a, max, retrying)
}

// Warn prints a warning; -q does not silence it.
func (s *scaleObserver) Warn(msg string) {
	errorf(s.w, "warning: %s", msg)
}
