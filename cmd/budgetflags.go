package cmd

import (
	"math"
	"os"
	"path/filepath"
	"runtime"
	"strconv"

	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/budget"
)

// budgetOptions are the flags of the retry budget shared by many retries
// on one machine, or in a store for many (storeOptions), and of its
// concurrency cap (docs/at-scale.md).
type budgetOptions struct {
	fs            *pflag.FlagSet
	budget        string
	budgetRatio   string
	maxConcurrent string
	stateDir      string
	store         storeOptions

	maxSlots int // --max-concurrent, checked
	policy   budget.Policy
}

// register declares the flags on fs.
func (o *budgetOptions) register(fs *pflag.FlagSet) {
	o.fs = fs
	fs.StringVar(&o.budget, "budget", "", "share the retry budget `NAME` with every retry on this machine that names it, or on every machine with --budget-store: retries at most --budget-ratio of first attempts, plus 10 a minute")
	fs.StringVar(&o.budgetRatio, "budget-ratio", "0.1", "allow `R` retries per first attempt in the last minute, on top of 10 a minute")
	fs.StringVar(&o.maxConcurrent, "max-concurrent", "", "with --budget: let at most `N` attempts of the budget run at once on this machine (in the fleet, with --budget-store); the wait counts against the deadline")
	fs.StringVar(&o.stateDir, "state-dir", "", "with --budget: keep budgets in `DIR` (default $XDG_STATE_HOME/retry, else ~/.local/state/retry)")
	o.store.register(fs)
}

// check checks the flags, and the environment (getenv) for
// RETRY_BUDGET_STORE.
func (o *budgetOptions) check(getenv func(string) string) error {
	if o.budget == "" {
		for _, name := range []string{"budget-ratio", "max-concurrent", "state-dir", "budget-store", "budget-unavailable"} {
			if o.fs != nil && o.fs.Changed(name) {
				return usagef("budgets and concurrency caps are shared under a name: add --budget NAME", "--%s needs --budget", name)
			}
		}
		return nil
	}
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
	return o.store.configure(o.fs, getenv)
}

// open opens the budget, when one is named, and puts it in cfg. The
// returned function closes it.
func (o *budgetOptions) open(cfg *runner.Config, getenv func(string) string) (func(), error) {
	if o.budget == "" {
		return func() {}, nil
	}
	if closeStore, ok, err := o.store.open(cfg, o.budget, o.policy, o.maxSlots); ok {
		return closeStore, err
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
	cfg.Budget, cfg.MaxConcurrent, cfg.BudgetScope = b, o.maxSlots, stateScope(dir)
	return func() { b.Close() }, nil
}

// stateScope returns the state directory dir as the scope of its
// budgets' slots (runner.Config.BudgetScope): absolute, through any
// symlinks, so that every spelling of one directory is one scope.
func stateScope(dir string) string {
	if abs, err := filepath.Abs(dir); err == nil {
		dir = abs
	}
	if real, err := filepath.EvalSymlinks(dir); err == nil {
		dir = real
	}
	return dir
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
