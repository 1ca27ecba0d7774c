package cmd

import (
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/redact"
	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/backoff"
	"github.com/b0a38808/retry/runner/classify"
)

func TestUntilLine(t *testing.T) {
	rs := results()
	pass := func(n int) runner.Attempt {
		return runner.Attempt{Number: n, Class: classify.Success, Reason: "exit 0"}
	}
	cut := runner.Attempt{Number: 1, Exit: exitcodes.Exit{Signal: syscall.SIGTERM, SignalSent: true, TimedOut: true}, Class: classify.Ambiguous}
	failIf := runner.Attempt{Number: 3, Class: classify.Failure, Reason: `exit 0 but stderr matched --fail-if "FAIL"`}
	for _, tc := range []struct {
		name string
		res  *runner.Result
		max  int
		code int
		want string // "" when the line is not --until's
	}{
		{"failed", rs[runner.Failed], 50, 3, "run 2 of 50 failed after 0.00s: exit 3 (1 passed before it, 1.00s in all)"},
		{"failed, unlimited", rs[runner.Failed], 0, 3, "run 2 failed after 0.00s: exit 3 (1 passed before it, 1.00s in all)"},
		{"failed by --fail-if", &runner.Result{UntilFailure: true, Outcome: runner.Failed, Passed: 2, Elapsed: time.Second, Attempts: []runner.Attempt{pass(1), pass(2), failIf}}, 3, 1,
			`run 3 of 3 failed after 0.00s: exit 0 but stderr matched --fail-if "FAIL" (2 passed before it, 1.00s in all)`},
		{"passed, the deadline cutting the last run", rs[runner.Passed], 0, 0, "no failure in 2 runs in 10.00s; the deadline cut run 3 short"},
		{"passed", &runner.Result{UntilFailure: true, Outcome: runner.Passed, Passed: 1, Elapsed: time.Minute, Attempts: []runner.Attempt{pass(1)}}, 1, 0,
			"no failure in 1 run in 1m"},
		{"the deadline cut the first run", &runner.Result{UntilFailure: true, Outcome: runner.Deadline, Elapsed: time.Second, Attempts: []runner.Attempt{cut}}, 5, 124,
			"no run finished in 1.00s: the deadline cut run 1 short (exit 124)"},
		{"deadline before any run", &runner.Result{UntilFailure: true, Outcome: runner.Deadline}, 5, 124, ""},
		{"cancelled", &runner.Result{UntilFailure: true, Outcome: runner.Cancelled, Signal: syscall.SIGINT, Attempts: []runner.Attempt{pass(1)}}, 5, 130, ""},
		{"not --until fail", rs[runner.Exhausted], 3, 1, ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := untilLine(tc.res, tc.max, tc.code, (*redact.Redactor)(nil))
			if got != tc.want || ok != (tc.want != "") {
				t.Errorf("got  %q, %v\nwant %q", got, ok, tc.want)
			}
			if ok && summaryLine(tc.res, tc.max, tc.code, (*redact.Redactor)(nil)) != got {
				t.Errorf("summaryLine does not say %q", got)
			}
		})
	}
}

// TestApplyUntil checks --until's values, the flags it refuses beside
// fail, and the waits between runs it makes.
func TestApplyUntil(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		err     string // "" when good
		hint    string
		waits   backoff.Policy
		runTill bool
	}{
		{args: nil, waits: backoff.Policy{Base: time.Second, Cap: 30 * time.Second, Jitter: backoff.Full}},
		{args: []string{"--until", "success", "--retry-on", "75"}, waits: backoff.Policy{Base: time.Second, Cap: 30 * time.Second, Jitter: backoff.Full}},
		{args: []string{"--until", "fail"}, runTill: true, waits: backoff.Policy{Base: time.Second, Jitter: backoff.None}},
		{args: []string{"--until", "fail", "--delay", "2s"}, runTill: true, waits: backoff.Policy{Base: 2 * time.Second, Cap: 2 * time.Second, Jitter: backoff.None}},
		{args: []string{"--until", "fail", "--fail-if", "FAIL", "--match", "both", "--seed", "1"}, runTill: true, waits: backoff.Policy{Base: time.Second, Jitter: backoff.None}},
		{args: []string{"--until", "fails"}, err: `--until: must be success or fail, got "fails"`, hint: "--until takes success"},
		{args: []string{"--until", "false"}, err: "--until: must be", hint: "--until false is --until fail here"},
		{args: []string{"--until", "0,2-5"}, err: "--until: must be", hint: "here --stop-on 0,2-5 stops there"},
		{args: []string{"--until", "fail", "--retry-on", "1"}, err: "--retry-on can't be used with --until fail", hint: "no rule decides about retrying"},
		{args: []string{"--until", "fail", "--stop-on", "1"}, err: "--stop-on can't be used with --until fail"},
		{args: []string{"--until", "fail", "--retry-if", "x"}, err: "--retry-if can't be used"},
		{args: []string{"--until", "fail", "--stop-if", "x"}, err: "--stop-if can't be used"},
		{args: []string{"--until", "fail", "--preset", "curl"}, err: "--preset can't be used"},
		{args: []string{"--until", "fail", "--on-ambiguous", "retry"}, err: "--on-ambiguous can't be used"},
		{args: []string{"--until", "fail", "--max-delay", "1s"}, err: "--max-delay can't be used", hint: "exactly --delay DUR later"},
		{args: []string{"--until", "fail", "--jitter", "none"}, err: "--jitter can't be used"},
		{args: []string{"--until", "fail", "--reset-after", "1m"}, err: "--reset-after can't be used"},
		{args: []string{"--until", "fail", "--on-retry", "true"}, err: "--on-retry can't be used"},
		{args: []string{"--until", "fail", "--budget", "b"}, err: "--budget can't be used", hint: "makes none"},
	} {
		t.Run(strings.Join(tc.args, " "), func(t *testing.T) {
			o := newOptions(nil)
			fs := pflag.NewFlagSet("retry", pflag.ContinueOnError)
			o.register(fs)
			if err := fs.Parse(tc.args); err != nil {
				t.Fatal(err)
			}
			cfg, err := o.config([]string{"true"}, t0)
			var usage *usageError
			switch {
			case tc.err == "" && err != nil:
				t.Fatalf("error %v", err)
			case tc.err != "" && (err == nil || !strings.Contains(err.Error(), tc.err)):
				t.Fatalf("error %v; want %q", err, tc.err)
			case tc.err != "" && (!asUsage(err, &usage) || !strings.Contains(usage.hint, tc.hint)):
				t.Fatalf("hint %q; want %q in it", usage.hint, tc.hint)
			case tc.err != "":
				return
			}
			if cfg.UntilFailure != tc.runTill || cfg.Backoff != tc.waits {
				t.Errorf("until failure %v, waits %+v; want %v, %+v", cfg.UntilFailure, cfg.Backoff, tc.runTill, tc.waits)
			}
		})
	}
}

func asUsage(err error, usage **usageError) bool {
	u, ok := err.(*usageError)
	*usage = u
	return ok
}
