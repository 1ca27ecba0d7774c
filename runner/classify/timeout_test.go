package classify

import (
	"syscall"
	"testing"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/runner/match"
)

// TestClassifyTimeoutWord checks the word timeout in --retry-on and
// --stop-on: --retry-on timeout retries only cut attempts, step 8 making
// the other failures permanent; --stop-on timeout stops at one, step 4
// coming before step 7, and leaves other failures to the steps below.
func TestClassifyTimeoutWord(t *testing.T) {
	cut := exitcodes.Exit{ExitCode: -1, Signal: syscall.SIGTERM, SignalSent: true, TimedOut: true}
	cutExited := func(code int) exitcodes.Exit { return exitcodes.Exit{ExitCode: code, TimedOut: true} }
	retryOn := Rules{RetryOn: mustCodes(t, "timeout", "")}
	stopOn := Rules{StopOn: mustCodes(t, "timeout", "")}
	for _, tc := range []struct {
		name  string
		rules Rules
		exit  exitcodes.Exit
		out   match.Output
		class Class
		retry bool
		why   string
	}{
		{"--retry-on timeout retries a cut attempt", retryOn, cut, match.Output{}, Retryable, true, "timed out: timeout is in --retry-on"},
		{"--retry-on timeout, whatever the cut attempt exited with", retryOn, cutExited(0), match.Output{}, Retryable, true, "timed out: timeout is in --retry-on"},
		{"--retry-on timeout beats --on-ambiguous stop", Rules{RetryOn: retryOn.RetryOn, StopOnAmbiguous: true}, cut, match.Output{}, Retryable, true, "timed out: timeout is in --retry-on"},
		{"--retry-on timeout makes other failures permanent", retryOn, exitcodes.Exit{ExitCode: 1}, match.Output{}, Permanent, false,
			"not listed: exit 1 matched no --retry-on or --retry-if rule"},
		{"--retry-on timeout leaves a stray signal ambiguous", retryOn, exitcodes.Exit{ExitCode: -1, Signal: syscall.SIGKILL}, match.Output{}, Ambiguous, true,
			"killed by SIGKILL: may have committed an effect"},
		{"--retry-on timeout is not exit 124", retryOn, exitcodes.Exit{ExitCode: 124}, match.Output{}, Permanent, false,
			"not listed: exit 124 matched no --retry-on or --retry-if rule"},
		{"--retry-on 1,timeout names the timeout for a cut attempt that exited 1", Rules{RetryOn: mustCodes(t, "1,timeout", "")}, cutExited(1), match.Output{}, Retryable, true,
			"timed out: timeout is in --retry-on"},
		{"--stop-on timeout stops at a cut attempt", stopOn, cut, match.Output{}, Permanent, false, "timed out: timeout is in --stop-on"},
		{"--stop-on timeout stops at one that exited 0", stopOn, cutExited(0), match.Output{}, Permanent, false, "timed out: timeout is in --stop-on"},
		{"--stop-on timeout beats --retry-on timeout", Rules{StopOn: stopOn.StopOn, RetryOn: retryOn.RetryOn}, cutExited(0), match.Output{}, Permanent, false,
			"timed out: timeout is in --stop-on"},
		{"--stop-on timeout beats --retry-on 143", Rules{StopOn: stopOn.StopOn, RetryOn: mustCodes(t, "143", "")}, cutExited(143), match.Output{}, Permanent, false,
			"timed out: timeout is in --stop-on"},
		{"--stop-on timeout leaves other failures to the default", stopOn, exitcodes.Exit{ExitCode: 1}, match.Output{}, Retryable, true, "default: exit 1 may be transient"},
		{"--stop-on timeout leaves a success alone", stopOn, exitcodes.Exit{}, match.Output{}, Success, false, "exit 0"},
		{"--stop-if still comes first", stopOn, cut, match.Output{StopIf: &match.Match{Pattern: "x", Stream: "stderr"}}, Permanent, false, `stderr matched --stop-if "x"`},
		{"--retry-if before --retry-on timeout", Rules{RetryOn: retryOn.RetryOn, RetryIf: mustPatterns(t, "x")}, cut, match.Output{RetryIf: &match.Match{Pattern: "x", Stream: "stderr"}}, Retryable, true,
			`stderr matched --retry-if "x"`},
		{"a preset's timeout names the preset", Rules{RetryOn: mustCodes(t, "28,timeout", "preset p")}, cut, match.Output{}, Retryable, true,
			"timed out: timeout is in --retry-on 28,timeout of preset p"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.rules.Classify(Facts{Exit: tc.exit, Output: tc.out})
			if d.Class != tc.class || d.Retry != tc.retry || d.Reason != tc.why {
				t.Errorf("Classify = %v, %v, %q; want %v, %v, %q", d.Class, d.Retry, d.Reason, tc.class, tc.retry, tc.why)
			}
		})
	}
}
