package cmd

import (
	"fmt"
	"io"
	"strconv"
	"time"

	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/runner"
)

// nestingOptions is --nested, and what retry says once when it runs
// inside another retry (runner.Nest applies the rule).
type nestingOptions struct {
	nested bool
	note   string // said once per outer operation when a nested retry makes a single attempt
}

// register declares the flag on fs.
func (o *nestingOptions) register(fs *pflag.FlagSet) {
	fs.BoolVar(&o.nested, "nested", false, "retry here too when run inside another retry (RETRY_DEPTH >= 1), which otherwise makes a single attempt")
}

// apply applies to cfg what an enclosing retry passes down: its deadline,
// its idempotency key, and nesting. getenv reads the environment.
func (o *nestingOptions) apply(cfg *runner.Config, getenv func(string) string) error {
	asked := "unlimited"
	if cfg.Attempts > 0 {
		asked = strconv.Itoa(cfg.Attempts)
	}
	single, err := runner.Nest(cfg, getenv, o.nested)
	if err != nil {
		return usagef("an enclosing retry sets it; unset it to run without the outer deadline", "%s", err)
	}
	// Once per outer operation: at its first attempt (RETRY_ATTEMPT,
	// which it sets), not again at every attempt it makes.
	if outer, err := strconv.Atoi(getenv(runner.EnvAttempt)); single && (err != nil || outer <= 1) {
		o.note = fmt.Sprintf("nested in another retry (%s=%d): making 1 attempt, not %s; the outer retry does the retrying (--nested retries at both layers)",
			runner.EnvDepth, cfg.Depth, asked)
	}
	return nil
}

// observer wraps the progress printer: it says once why a nested retry
// does not retry, when its attempt fails, and prints warnings (the retry
// budget's).
func (o *nestingOptions) observer(inner runner.Observer, w io.Writer, quiet bool) runner.Observer {
	return &noticeObserver{Observer: inner, w: w, note: o.note, quiet: quiet}
}

// noticeObserver is the Observer that observer returns.
type noticeObserver struct {
	runner.Observer
	w     io.Writer
	note  string
	quiet bool
}

// AttemptFinished says, before the first failed attempt's line, that a
// nested retry makes a single attempt: nothing is said when it succeeds.
func (s *noticeObserver) AttemptFinished(a *runner.Attempt, max int, retrying bool) {
	if s.note != "" && !s.quiet && a.Class.String() != "success" {
		errorf(s.w, "%s", s.note)
		s.note = ""
	}
	s.Observer.AttemptFinished(a, max, retrying)
}

// Splaying passes the splay on to the progress printer.
func (s *noticeObserver) Splaying(d time.Duration) {
	if o, ok := s.Observer.(runner.SplayObserver); ok {
		o.Splaying(d)
	}
}

// Cancelling passes the news of a cancellation on to the progress printer.
func (s *noticeObserver) Cancelling(what string, grace time.Duration) {
	if o, ok := s.Observer.(runner.CancelObserver); ok {
		o.Cancelling(what, grace)
	}
}

// Warn prints a warning; -q does not silence it.
func (s *noticeObserver) Warn(msg string) {
	errorf(s.w, "warning: %s", msg)
}
