package runner

import (
	"context"
	"path/filepath"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
	"github.com/b0a38808/retry/runner/classify"
)

// failsOn returns a command that succeeds on its runs before run n and
// does what fail says on run n and after, counting its runs in dir: the
// steps of command, or a line for sh when it starts with "sh:".
func failsOn(dir string, n int, fail string) []string {
	count := filepath.Join(dir, "runs")
	if script, ok := strings.CutPrefix(fail, "sh:"); ok {
		return []string{"sh", "-c", `n=$(($(cat "$1" 2>/dev/null || echo 0) + 1)); echo $n >"$1"; [ $n -lt ` + strconv.Itoa(n) + ` ] || ` + script, "sh", count}
	}
	return command(append([]string{"runs", count, strconv.Itoa(n)}, strings.Fields(fail)...)...)
}

func TestUntilFailure(t *testing.T) {
	noWait := backoff.Policy{Base: time.Second, Cap: 0, Jitter: backoff.None}
	fixed := backoff.Policy{Base: time.Second, Cap: time.Second, Jitter: backoff.None}
	for _, tc := range []struct {
		name     string
		failOn   int
		fail     string
		attempts int
		deadline time.Duration
		backoff  backoff.Policy
		outcome  Outcome
		runs     int
		passed   int
		reason   string // of the last run
		sleeps   []time.Duration
	}{
		{"the third run fails", 3, "exit 3", 5, 0, noWait, Failed, 3, 2, "exit 3", []time.Duration{0, 0}},
		{"the first run fails", 1, "exit 1", 5, 0, noWait, Failed, 1, 0, "exit 1", nil},
		{"a run killed by a signal fails", 2, "sh:kill -SEGV $$", 5, 0, noWait, Failed, 2, 1, "killed by SIGSEGV", []time.Duration{0}},
		{"an exit 64 fails, whatever the default rules say", 2, "exit 64", 0, time.Minute, noWait, Failed, 2, 1, "exit 64", []time.Duration{0}},
		{"no run fails", 9, "exit 1", 4, 0, noWait, Passed, 4, 4, "exit 0", []time.Duration{0, 0, 0}},
		{"--delay apart, exactly", 9, "exit 1", 3, 0, fixed, Passed, 3, 3, "exit 0", []time.Duration{time.Second, time.Second}},
		{"the deadline ends the runs before a wait", 9, "exit 1", 0, 2500 * time.Millisecond, fixed, Passed, 3, 3, "exit 0", []time.Duration{time.Second, time.Second}},
		{"a failure before the deadline", 2, "exit 5", 0, time.Hour, fixed, Failed, 2, 1, "exit 5", []time.Duration{time.Second}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if strings.HasPrefix(tc.fail, "sh:") && runtime.GOOS == "windows" {
				t.Skip("a death by signal needs Unix")
			}
			clock := &fakeClock{now: t0}
			cfg := Config{
				Command:      failsOn(t.TempDir(), tc.failOn, tc.fail),
				Attempts:     tc.attempts,
				UntilFailure: true,
				Backoff:      tc.backoff,
				Clock:        clock,
			}
			if tc.deadline > 0 {
				cfg.Deadline = t0.Add(tc.deadline)
			}
			res, err := Run(context.Background(), cfg)
			if err != nil {
				t.Fatal(err)
			}
			last := res.Last()
			if res.Outcome != tc.outcome || len(res.Attempts) != tc.runs || res.Passed != tc.passed || last.Reason != tc.reason {
				t.Errorf("%s after %d runs, %d passed, last %q; want %s after %d, %d passed, last %q",
					res.Outcome, len(res.Attempts), res.Passed, last.Reason, tc.outcome, tc.runs, tc.passed, tc.reason)
			}
			if !slices.Equal(clock.sleeps, tc.sleeps) {
				t.Errorf("slept %v; want %v", clock.sleeps, tc.sleeps)
			}
			for i, a := range res.Attempts {
				want := classify.Success
				if tc.outcome == Failed && i == len(res.Attempts)-1 {
					want = classify.Failure
				}
				if a.Class != want {
					t.Errorf("run %d is %s; want %s", a.Number, a.Class, want)
				}
			}
			if !res.UntilFailure {
				t.Error("the result does not say that it ran until a failure")
			}
		})
	}
}

// TestUntilFailureDeadlineCutsARun checks that a run the deadline cuts
// short is no failure: the time ran out with none, or, before any run
// passed, with nothing tested (Deadline).
func TestUntilFailureDeadlineCutsARun(t *testing.T) {
	for _, tc := range []struct {
		name    string
		steps   []string // after the runs counted in FILE (see command)
		outcome Outcome
		passed  int
	}{
		{"after runs that passed", []string{"runs", "FILE", "2", "sleep", "5s"}, Passed, 1},
		{"on the first run", []string{"sleep", "5s"}, Deadline, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			steps := slices.Clone(tc.steps)
			if i := slices.Index(steps, "FILE"); i >= 0 {
				steps[i] = filepath.Join(t.TempDir(), "runs")
			}
			res, err := Run(context.Background(), Config{
				Command:      command(steps...),
				UntilFailure: true,
				Deadline:     time.Now().Add(time.Second),
				KillAfter:    time.Second,
				Backoff:      backoff.Policy{Base: time.Second},
			})
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tc.outcome || res.Passed != tc.passed || !res.Last().TimedOut {
				t.Errorf("%s, %d passed, last timed out %v; want %s, %d passed, timed out", res.Outcome, res.Passed, res.Last().TimedOut, tc.outcome, tc.passed)
			}
		})
	}
}

// TestUntilFailureTimeoutFails checks that a run cut by its own timeout,
// a hang, is the failure looked for.
func TestUntilFailureTimeoutFails(t *testing.T) {
	res, err := Run(context.Background(), Config{
		Command:      command("sleep", "5s"),
		Attempts:     3,
		UntilFailure: true,
		Timeout:      100 * time.Millisecond,
		KillAfter:    time.Second,
		Backoff:      backoff.Policy{Base: time.Second},
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Failed || len(res.Attempts) != 1 || res.Last().Reason != "timed out" || res.Last().Class != classify.Failure {
		t.Errorf("%s after %d runs, last %s %q; want failed after 1, failure \"timed out\"", res.Outcome, len(res.Attempts), res.Last().Class, res.Last().Reason)
	}
}
