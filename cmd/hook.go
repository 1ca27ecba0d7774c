package cmd

import (
	"fmt"

	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/runner"
)

// hookOptions are the flags of the command run between attempts.
type hookOptions struct {
	onRetry, onRetryFail string
}

func (o *hookOptions) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.onRetry, "on-retry", "", "run `CMD` with /bin/sh -c (cmd.exe /c on Windows) after a failed attempt, before the wait, when another attempt will follow")
	fs.StringVar(&o.onRetryFail, "on-retry-fail", "continue", "what a failing --on-retry does, `MODE`: continue (say so and retry) or stop (give up)")
}

// apply checks the flags and sets them in cfg. An empty --on-retry is
// refused before (refuseEmpty): empty here means left out, and then
// --on-retry-fail stop is refused.
func (o *hookOptions) apply(cfg *runner.Config) error {
	cfg.OnRetry = o.onRetry
	switch o.onRetryFail {
	case "continue":
	case "stop":
		cfg.OnRetryStop = true
	default:
		return usagef("", "--on-retry-fail: must be continue or stop, got %q", o.onRetryFail)
	}
	if cfg.OnRetryStop && o.onRetry == "" {
		// Said, as --state-dir without --budget is: a stop that can never
		// happen is a mistake in the command line.
		return usagef("add --on-retry CMD: --on-retry-fail says what its failure does", "--on-retry-fail stop needs --on-retry")
	}
	return nil
}

// describeHook says how the --on-retry command ended, for the progress
// line: "--on-retry exited 0 after 0.05s", "--on-retry failed after
// 1.00s: timed out".
func describeHook(h *runner.Hook) string {
	if !h.Failed() {
		return "--on-retry exited 0 after " + seconds(h.Duration)
	}
	how := fmt.Sprintf("exit %d", h.ExitCode)
	switch {
	case h.StartErr != nil:
		how = fmt.Sprintf("cannot start: %v", h.StartErr)
	case h.TimedOut:
		how = "timed out"
	case h.Signal != 0:
		how = "killed by " + proc.SignalName(h.Signal)
	}
	return fmt.Sprintf("--on-retry failed after %s: %s", seconds(h.Duration), how)
}
