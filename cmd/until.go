package cmd

import (
	"fmt"

	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/backoff"
)

// untilFail is --until fail: run the command again while it succeeds,
// and stop at its first failure (flake hunting).
const untilFail = "fail"

// untilConflicts are the flags that --until fail refuses, and why: each
// would decide about retrying, which it does not do, or be ignored.
var untilConflicts = []struct{ flag, why string }{
	{"retry-on", untilNoRetry},
	{"stop-on", untilNoRetry},
	{"retry-if", untilNoRetry},
	{"stop-if", untilNoRetry},
	{"preset", untilNoRetry},
	{"on-ambiguous", untilNoRetry},
	{"max-delay", untilWaits},
	{"jitter", untilWaits},
	{"reset-after", untilWaits},
	{"hint-pattern", untilWaits},
	{"max-hint", untilWaits},
	{"on-retry", untilHook},
	{"on-retry-fail", untilHook},
	{"budget", "a retry budget counts retries, and --until fail makes none"},
}

const (
	untilNoRetry = "--until fail runs the command again while it succeeds and stops at its first failure: no rule decides about retrying"
	untilWaits   = "--until fail runs the command again at once, or exactly --delay DUR later"
	untilHook    = "--on-retry runs between a failed attempt and the next, and --until fail stops at the first failure"
)

// applyUntil checks --until and, for --until fail, the flags beside it,
// and makes cfg run until a failure: the runs follow each other without
// a wait, or exactly --delay apart when it is given.
func (o *options) applyUntil(cfg *runner.Config) error {
	switch o.until {
	case "success":
		return nil
	case untilFail:
	default:
		return usagef(debianUntilHint(o.until), "--until: must be success or fail, got %q", o.until)
	}
	for _, c := range untilConflicts {
		if o.fs != nil && o.fs.Changed(c.flag) {
			return usagef(c.why, "--%s can't be used with --until fail", c.flag)
		}
	}
	cfg.UntilFailure = true
	cfg.Backoff = backoff.Policy{Base: cfg.Backoff.Base, Jitter: backoff.None}
	if o.fs != nil && o.fs.Changed("delay") {
		cfg.Backoff.Cap = cfg.Backoff.Base
	}
	o.classify.untilFail = true
	return nil
}

// untilLine is the summary line of an operation that ran until a
// failure, when it ended as only such an operation ends:
//
//	run 7 of 50 failed after 0.84s: exit 1 (6 passed before it, 3.20s in all)
//	no failure in 50 runs in 12.30s
//	no failure in 136 runs in 10m; the deadline cut run 137 short
//	no run finished in 1.00s: the deadline cut run 1 short (exit 124)
//
// The failing run's line is the only one about it: it says how the run
// failed, its reason redacted by r, as its progress line would have.
func untilLine(res *runner.Result, max, code int, r reasoner) (string, bool) {
	last := res.Last()
	if !res.UntilFailure || last == nil {
		return "", false
	}
	took := seconds(res.Elapsed)
	switch res.Outcome {
	case runner.Failed:
		return fmt.Sprintf("run %s failed after %s: %s (%d passed before it, %s in all)", numberOf(last.Number, max), seconds(last.Duration), r.Reason(last.Reason), res.Passed, took), true
	case runner.Passed:
		line := fmt.Sprintf("no failure in %s in %s", plural(res.Passed, "run"), took)
		if last.TimedOut {
			line += fmt.Sprintf("; the deadline cut run %d short", last.Number)
		}
		return line, true
	case runner.Deadline:
		if last.TimedOut {
			return fmt.Sprintf("no run finished in %s: the deadline cut run %d short (exit %d)", took, last.Number, code), true
		}
	}
	return "", false
}
