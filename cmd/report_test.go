package cmd

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/redact"
	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/classify"
)

var t0 = time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)

// results returns a result of every outcome, with every kind of attempt:
// exited, killed by a signal, timed out, not started, hinted.
func results() map[runner.Outcome]*runner.Result {
	failed := func(n int, delay time.Duration) runner.Attempt {
		return runner.Attempt{
			Number: n, Started: t0.Add(time.Duration(n) * time.Second), Duration: 210300 * time.Microsecond,
			Exit: exitcodes.Exit{ExitCode: 1}, Class: classify.Retryable, Reason: "default: exit 1 may be transient",
			Delay: delay, HasDelay: delay > 0,
		}
	}
	hinted := failed(2, 30*time.Second)
	hinted.Hint, hinted.HasHint = 30*time.Second, true
	last := func(a runner.Attempt) runner.Attempt { a.Delay, a.HasDelay = 0, false; return a }
	passed := func(n int) runner.Attempt {
		return runner.Attempt{Number: n, Started: t0.Add(time.Duration(n) * time.Second), Duration: time.Second, Class: classify.Success, Reason: "exit 0", HasDelay: true}
	}
	reset := failed(2, time.Second)
	reset.Duration, reset.BackoffReset = time.Hour, true
	reset.Hook = &runner.Hook{Duration: 50 * time.Millisecond, Exit: exitcodes.Exit{ExitCode: 3}}
	hooked := failed(1, 2*time.Second)
	hooked.Hook = &runner.Hook{Duration: 3 * time.Second, Exit: exitcodes.Exit{ExitCode: -1, Signal: syscall.SIGTERM, TimedOut: true}}
	all := map[runner.Outcome]*runner.Result{
		runner.Succeeded: {Outcome: runner.Succeeded, Started: t0, Elapsed: 1234500 * time.Microsecond, Attempts: []runner.Attempt{
			failed(1, 631200*time.Microsecond), hinted,
			{Number: 3, Started: t0.Add(3 * time.Second), Duration: time.Millisecond, Class: classify.Success, Reason: "exit 0"},
		}},
		runner.Permanent: {Outcome: runner.Permanent, Started: t0, Elapsed: time.Millisecond, Attempts: []runner.Attempt{
			{Number: 1, Started: t0, Exit: exitcodes.Exit{StartErr: errors.New("not found"), ExitCode: 127}, Class: classify.Permanent, Reason: "cannot start: command not found"},
		}},
		runner.Exhausted: {Outcome: runner.Exhausted, Started: t0, Elapsed: 5200 * time.Millisecond, Attempts: []runner.Attempt{
			failed(1, time.Second), reset, last(failed(3, 0)),
		}},
		runner.Deadline: {Outcome: runner.Deadline, Started: t0, Elapsed: 10 * time.Second, Deadline: t0.Add(10 * time.Second), Attempts: []runner.Attempt{
			hooked,
			{Number: 2, Started: t0.Add(3 * time.Second), Duration: 7 * time.Second, Exit: exitcodes.Exit{ExitCode: -1, Signal: syscall.SIGTERM, TimedOut: true},
				Class: classify.Ambiguous, Reason: "timed out: may have committed an effect"},
		}},
		// Cancelled during the wait after attempt 1: the wait is reported.
		runner.Cancelled: {Outcome: runner.Cancelled, Started: t0, Elapsed: time.Second, Signal: syscall.SIGINT, Attempts: []runner.Attempt{
			failed(1, 5*time.Second),
		}},
		runner.Budget: {Outcome: runner.Budget, Started: t0, Elapsed: time.Second, Attempts: []runner.Attempt{
			last(failed(1, 0)),
		}},
		// --until fail: the second run failed; no failure in two runs,
		// the deadline cutting the third.
		runner.Failed: {Outcome: runner.Failed, UntilFailure: true, Passed: 1, Started: t0, Elapsed: time.Second, Attempts: []runner.Attempt{
			passed(1), {Number: 2, Started: t0.Add(time.Second), Exit: exitcodes.Exit{ExitCode: 3}, Class: classify.Failure, Reason: "exit 3"},
		}},
		runner.Passed: {Outcome: runner.Passed, UntilFailure: true, Passed: 2, Started: t0, Elapsed: 10 * time.Second, Deadline: t0.Add(10 * time.Second), Attempts: []runner.Attempt{
			passed(1), passed(2), {Number: 3, Started: t0.Add(2 * time.Second), Duration: 8 * time.Second, Exit: exitcodes.Exit{ExitCode: -1, Signal: syscall.SIGTERM, TimedOut: true},
				Class: classify.Ambiguous, Reason: "timed out: may have committed an effect"},
		}},
	}
	for _, res := range all {
		res.IdempotencyKey = "0b6f7c1e-3c1a-4a53-9a43-5f1c1d7f2a10"
		res.Total = len(res.Attempts)
	}
	return all
}

// TestReportSchema checks the report of every outcome against
// docs/report.schema.json, and the rules the schema cannot express.
func TestReportSchema(t *testing.T) {
	schema := loadSchema(t)
	codes := map[runner.Outcome]int{
		runner.Succeeded: 0, runner.Permanent: 127, runner.Exhausted: 1,
		runner.Deadline: 124, runner.Cancelled: 130, runner.Budget: 1,
		runner.Failed: 3, runner.Passed: 0,
	}
	for outcome, res := range results() {
		t.Run(string(outcome), func(t *testing.T) {
			data, err := reportJSON(newReport("sh", []string{"sh", "-c", "exit 1"}, res, codes[outcome], (*redact.Redactor)(nil)))
			if err != nil {
				t.Fatal(err)
			}
			checkReport(t, schema, data)
		})
	}
}

// checkReport validates a report against the schema and the rules the
// schema cannot express.
func checkReport(t *testing.T, schema map[string]any, data []byte) map[string]any {
	t.Helper()
	doc, err := decodeJSON(data)
	if err != nil {
		t.Fatalf("%v\n%s", err, data)
	}
	if errs := validate(schema, doc); len(errs) > 0 {
		t.Fatalf("the report breaks docs/report.schema.json:\n%s\n%s", strings.Join(errs, "\n"), data)
	}
	rep := doc.(map[string]any)
	attempts := rep["attempts"].([]any)
	omitted := number(rep["attempts_omitted"])
	if _, ok := rep["attempts_total"]; ok {
		if number(rep["attempts_total"]) != float64(len(attempts))+omitted || len(attempts) != runner.KeepFirst+runner.KeepLast {
			t.Errorf("attempts_total %v, attempts_omitted %v, %d attempts listed; want the first %d and the last %d listed, and the rest counted",
				rep["attempts_total"], rep["attempts_omitted"], len(attempts), runner.KeepFirst, runner.KeepLast)
		}
	}
	for i, a := range attempts {
		a := a.(map[string]any)
		want := float64(i + 1)
		if i >= runner.KeepFirst {
			want += omitted
		}
		if got := number(a["attempt"]); got != want {
			t.Errorf("attempt %v is numbered %v", want, got)
		}
		_, delay := a["delay_ms"]
		if last := i == len(attempts)-1; delay == last && rep["outcome"] != "cancelled" {
			t.Errorf("attempt %d: delay_ms present is %v; want it on every attempt but the last", i+1, delay)
		}
	}
	if rep["outcome"] == "succeeded" && number(rep["exit_code"]) != 0 {
		t.Errorf("succeeded with exit_code %v", rep["exit_code"])
	}
	return rep
}

// TestReportOfRealRuns runs retry on real commands, one per outcome that a
// command can produce on its own, and checks the report it writes.
func TestReportOfRealRuns(t *testing.T) {
	if testing.Short() {
		t.Skip("runs processes")
	}
	schema := loadSchema(t)
	tests := []struct {
		outcome string
		code    int
		args    []string
		has     []string // in the report's text
	}{
		{"succeeded", 0, []string{"-a", "3", "--delay", "1ms", "--", "sh", "-c", `echo x >>"$0"; [ $(wc -l <"$0") -ge 2 ]`, "{dir}/n"}, nil},
		{"permanent", 64, []string{"--", "sh", "-c", "exit 64"}, nil},
		{"permanent", 127, []string{"--", "no-such-command-anywhere"}, nil},
		{"exhausted", 1, []string{"-a", "2", "--delay", "1ms", "--", "sh", "-c", "exit 1"}, nil},
		{"deadline", 124, []string{"-a", "3", "-d", "100ms", "--kill-after", "50ms", "--", "sleep", "5"}, nil},
		{"exhausted", 1, []string{"-a", "3", "--delay", "1ms", "--reset-after", "1ms", "--on-retry", "exit 3", "--", "sh", "-c", "sleep 0.01; exit 1"},
			[]string{`"backoff_reset": true`, `"exit_code": 3,`}},
		{"permanent", 1, []string{"-a", "3", "--delay", "1ms", "--on-retry", "kill $$", "--on-retry-fail", "stop", "--", "sh", "-c", "exit 1"},
			[]string{`"signal": "SIGTERM",`}},
		{"deadline", 124, []string{"-a", "3", "-d", "200ms", "--delay", "1ms", "--kill-after", "50ms", "--on-retry", "sleep 5", "--", "sh", "-c", "exit 1"},
			[]string{`"timed_out": true`}},
	}
	for _, tt := range tests {
		t.Run(tt.outcome, func(t *testing.T) {
			if runtime.GOOS == "windows" && (slices.Contains(tt.args, "sh") || slices.Contains(tt.args, "sleep")) {
				t.Skip("runs sh: testscript/wine runs --summary-file on Windows")
			}
			dir := t.TempDir()
			file := filepath.Join(dir, "report.json")
			args := []string{"--summary-file", file}
			for _, a := range tt.args {
				args = append(args, strings.ReplaceAll(a, "{dir}", dir))
			}
			var stdout, stderr bytes.Buffer
			status := execute("test", args, &stdout, &stderr)
			if int(status.code) != tt.code {
				t.Fatalf("exit status %d, want %d; stderr:\n%s", status.code, tt.code, &stderr)
			}
			data, err := os.ReadFile(file)
			if err != nil {
				t.Fatal(err)
			}
			rep := checkReport(t, schema, data)
			for _, want := range tt.has {
				if !strings.Contains(string(data), want) {
					t.Errorf("the report lacks %s:\n%s", want, data)
				}
			}
			if rep["outcome"] != tt.outcome || number(rep["exit_code"]) != float64(tt.code) {
				t.Errorf("outcome %v, exit_code %v; want %s, %d", rep["outcome"], rep["exit_code"], tt.outcome, tt.code)
			}
			info, err := os.Stat(file)
			if err != nil {
				t.Fatal(err)
			}
			if mode := info.Mode().Perm(); mode != 0o600 && runtime.GOOS != "windows" {
				t.Errorf("mode %v, want 0600", mode)
			}
		})
	}
}

// TestReportPastDeadline checks that an operation whose deadline, an
// enclosing retry's, had passed before it started reports deadline_ms 0,
// as the schema requires, not a negative number.
func TestReportPastDeadline(t *testing.T) {
	res := &runner.Result{Outcome: runner.Deadline, Started: t0, Deadline: t0.Add(-time.Hour), IdempotencyKey: "k", Attempts: []runner.Attempt{}}
	data, err := reportJSON(newReport("true", []string{"true"}, res, 124, (*redact.Redactor)(nil)))
	if err != nil {
		t.Fatal(err)
	}
	rep := checkReport(t, loadSchema(t), data)
	if got := number(rep["deadline_ms"]); got != 0 {
		t.Errorf("deadline_ms %v, want 0", got)
	}
}

// TestReportRedacts checks that the command and the reasons in the report
// are redacted, and that reasons are cut to 200 characters.
func TestReportRedacts(t *testing.T) {
	res := results()[runner.Permanent]
	res.Attempts[0].Reason = `stderr matched --stop-if "denied": token=Hunter2-Pa55 ` + strings.Repeat("x", 300)
	r, err := redact.New([]string{"acct-[0-9]+"})
	if err != nil {
		t.Fatal(err)
	}
	cmd := r.Args([]string{"deploy", "--password", "Hunter2-Pa55", "acct-42"})
	data, err := reportJSON(newReport(defaultName(cmd, r), cmd, res, 127, r))
	if err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"Hunter2-Pa55", "acct-42"} {
		if bytes.Contains(data, []byte(secret)) {
			t.Errorf("the report shows %q:\n%s", secret, data)
		}
	}
	checkReport(t, loadSchema(t), data)
}

// TestWriteReportAtomic checks that a report replaces the old one whole
// and leaves nothing else in the directory.
func TestWriteReportAtomic(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "r.json")
	if err := os.WriteFile(path, bytes.Repeat([]byte("old "), 10000), 0o644); err != nil {
		t.Fatal(err)
	}
	rep := newReport("true", []string{"true"}, results()[runner.Succeeded], 0, (*redact.Redactor)(nil))
	if err := writeReport(path, rep); err != nil {
		t.Fatal(err)
	}
	want, _ := reportJSON(rep)
	got, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(got, want) {
		t.Errorf("got %q, want the new report", got[:min(len(got), 60)])
	}
	entries, _ := os.ReadDir(dir)
	if len(entries) != 1 {
		t.Errorf("the directory holds %d entries, want only the report", len(entries))
	}
	if info, _ := os.Stat(path); info.Mode().Perm() != 0o600 && runtime.GOOS != "windows" {
		t.Errorf("mode %v, want 0600", info.Mode().Perm())
	}
	if err := writeReport(filepath.Join(dir, "no", "such", "r.json"), rep); err == nil {
		t.Error("writing into a missing directory succeeded")
	}
}
