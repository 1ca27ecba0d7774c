package cmd

import (
	"bytes"
	"io"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/redact"
	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/classify"
)

func TestSummaryLine(t *testing.T) {
	rs := results()
	duringAttempt := *rs[runner.Cancelled]
	duringAttempt.Signal = 0
	tests := []struct {
		name string
		res  *runner.Result
		max  int
		code int
		want string
	}{
		{"flaky pass", rs[runner.Succeeded], 3, 0, "passed on attempt 3 of 3 (flaky) after 1.23s"},
		{"flaky pass unlimited", rs[runner.Succeeded], 0, 0, "passed on attempt 3 (flaky) after 1.23s"},
		{"succeeded at once", &runner.Result{Outcome: runner.Succeeded, Elapsed: 400 * time.Millisecond, Attempts: rs[runner.Succeeded].Attempts[2:], Total: 1}, 3, 0, "succeeded on attempt 1/3 after 0.40s"},
		{"permanent", rs[runner.Permanent], 3, 127, "gave up after 1 attempt in 0.00s: exit 127 (permanent failure)"},
		{"exhausted", rs[runner.Exhausted], 3, 1, "gave up after 3 attempts in 5.20s: exit 1 (attempts exhausted)"},
		{"deadline", rs[runner.Deadline], 5, 124, "gave up after 2 attempts in 10.00s: deadline reached (exit 124)"},
		{"cancelled in a wait", rs[runner.Cancelled], 3, 130, "cancelled by SIGINT after 1 attempt in 1.00s"},
		{"cancelled in an attempt", &duringAttempt, 3, 1, "cancelled after 1 attempt in 1.00s: exit 1"},
		{"budget", rs[runner.Budget], 3, 1, "gave up after 1 attempt in 1.00s: exit 1 (retry budget empty)"},
		{"budget before any attempt", &runner.Result{Outcome: runner.Budget}, 3, 125, "gave up before the first attempt (retry budget empty)"},
		{"hint past the deadline", &runner.Result{Outcome: runner.Deadline, Elapsed: 20 * time.Millisecond, Attempts: []runner.Attempt{
			{Number: 1, Exit: exitcodes.Exit{ExitCode: 1}, Hint: 2 * time.Minute, HasHint: true, HintPastDeadline: true, Left: 9980 * time.Millisecond}}, Total: 1}, 3, 124,
			"gave up after 1 attempt in 0.02s: the server asked to wait 2m, past the deadline in 9.98s (exit 124)"},
		{"ambiguous, --on-ambiguous stop", &runner.Result{Outcome: runner.Permanent, Elapsed: time.Second, Attempts: []runner.Attempt{
			{Number: 1, Exit: exitcodes.Exit{TimedOut: true, Signal: 15, SignalSent: true}, Class: classify.Ambiguous}}, Total: 1}, 3, 124,
			"gave up after 1 attempt in 1.00s: timed out (ambiguous, --on-ambiguous stop)"},
		{"a whole hour", &runner.Result{Outcome: runner.Exhausted, Elapsed: time.Hour, Attempts: rs[runner.Exhausted].Attempts, Total: 3}, 3, 1,
			"gave up after 3 attempts in 1h: exit 1 (attempts exhausted)"},
		{"long", &runner.Result{Outcome: runner.Exhausted, Elapsed: 150 * time.Second, Attempts: rs[runner.Exhausted].Attempts, Total: 3}, 3, 1,
			"gave up after 3 attempts in 2m30s: exit 1 (attempts exhausted)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := summaryLine(tt.res, tt.max, tt.code, (*redact.Redactor)(nil)); got != tt.want {
				t.Errorf("got  %q\nwant %q", got, tt.want)
			}
		})
	}
}

func TestDescribe(t *testing.T) {
	rs := results()
	if got := describe(&rs[runner.Deadline].Attempts[1]); got != "timed out" {
		t.Errorf("timed out attempt: got %q", got)
	}
	killed := runner.Attempt{Exit: exitcodes.Exit{Signal: syscall.SIGKILL, ExitCode: -1}}
	if got := describe(&killed); got != "killed by SIGKILL" {
		t.Errorf("killed attempt: got %q", got)
	}
}

func TestAttemptRows(t *testing.T) {
	rows := attemptRows(results()[runner.Succeeded], (*redact.Redactor)(nil))
	want := []attemptRow{
		{"1", "+1.00s", "0.21s", "exit 1", "retryable", "0.63s", "default: exit 1 may be transient"},
		{"2", "+2.00s", "0.21s", "exit 1", "retryable", "30.00s (hint 30.00s)", "default: exit 1 may be transient"},
		{"3", "+3.00s", "0.00s", "exit 0", "success", "-", "exit 0"},
	}
	checkRows(t, rows.rows, want)
	var b bytes.Buffer
	writeTable(&b, rows)
	for i, line := range strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n") {
		if !strings.HasPrefix(line, "retry:   ") {
			t.Errorf("table line %d lacks the prefix: %q", i, line)
		}
	}
}

func TestParseSummaryMode(t *testing.T) {
	for _, s := range []string{"auto", "text", "json", "none"} {
		if m, err := parseSummaryMode(s); err != nil || string(m) != s {
			t.Errorf("parseSummaryMode(%q) = %q, %v", s, m, err)
		}
	}
	for _, s := range []string{"", "TEXT", "yes"} {
		if _, err := parseSummaryMode(s); err == nil {
			t.Errorf("parseSummaryMode(%q) succeeded", s)
		}
	}
}

func TestShellQuote(t *testing.T) {
	tests := []struct {
		in   []string
		want string
	}{
		{[]string{"curl", "-fsS", "https://example.com/a?b=c"}, `curl -fsS 'https://example.com/a?b=c'`},
		{[]string{"sh", "-c", "echo 'hi' && exit 1"}, `sh -c 'echo '\''hi'\'' && exit 1'`},
		{[]string{"echo", ""}, `echo ''`},
		{[]string{"--password", "***"}, `--password '***'`},
		{[]string{"printf", "a\x1b[31mb\n"}, `printf $'a\x1b[31mb\x0a'`},
		{[]string{"echo", "it's\x07"}, `echo $'it\'s\x07'`},
	}
	for _, tt := range tests {
		if got := shellQuote(tt.in); got != tt.want {
			t.Errorf("shellQuote(%q)\n got %s\nwant %s", tt.in, got, tt.want)
		}
	}
}

func TestMarkdown(t *testing.T) {
	if got, want := mdCell("a|b <b>*x*</b> [l](u) `c` _e_ & \\"), `a\|b &lt;b&gt;\*x\*&lt;/b&gt; \[l\](u) \`+"`c\\`"+` \_e\_ &amp; \\`; got != want {
		t.Errorf("mdCell:\n got %s\nwant %s", got, want)
	}
	for in, want := range map[string]string{
		"ls":       "`ls`",
		"echo `x`": "`` echo `x` ``",
		"a``b":     "```a``b```",
	} {
		if got := codeSpan(in); got != want {
			t.Errorf("codeSpan(%q) = %q, want %q", in, got, want)
		}
	}
	var b bytes.Buffer
	writeMarkdown(&b, "deploy_prod", []string{"make", "deploy"}, "succeeded on attempt 3/3 after 1.23s", attemptRows(results()[runner.Succeeded], (*redact.Redactor)(nil)))
	want := "### retry deploy\\_prod: `make deploy`\n\nsucceeded on attempt 3/3 after 1.23s\n\n" +
		"| attempt | started | took | result | class | wait | reason |\n" +
		"|---:|---:|---:|---|---|---:|---|\n" +
		"| 1 | +1.00s | 0.21s | exit 1 | retryable | 0.63s | default: exit 1 may be transient |\n" +
		"| 2 | +2.00s | 0.21s | exit 1 | retryable | 30.00s (hint 30.00s) | default: exit 1 may be transient |\n" +
		"| 3 | +3.00s | 0.00s | exit 0 | success | - | exit 0 |\n\n"
	if b.String() != want {
		t.Errorf("writeMarkdown:\n got %q\nwant %q", b.String(), want)
	}
}

func TestCIRun(t *testing.T) {
	env := func(kv ...string) func(string) string {
		return func(k string) string {
			for i := 0; i < len(kv); i += 2 {
				if kv[i] == k {
					return kv[i+1]
				}
			}
			return ""
		}
	}
	tests := []struct {
		name              string
		env               func(string) string
		flag, annotations string
		system            string // "" for none
		annotated         bool
		stepSummary       string
		jobAttempt        int
	}{
		{"none", env(), "auto", "auto", "", false, "", 0},
		{"github", env("GITHUB_ACTIONS", "true", "GITHUB_STEP_SUMMARY", "/s", "GITHUB_RUN_ATTEMPT", "2"), "auto", "auto", "github", true, "/s", 2},
		{"github, --ci-annotations none", env("GITHUB_ACTIONS", "true", "GITHUB_STEP_SUMMARY", "/s"), "auto", "none", "github", false, "/s", 0},
		{"not github", env("GITHUB_ACTIONS", "false", "GITHUB_STEP_SUMMARY", "/s"), "auto", "auto", "", false, "", 0},
		{"gitlab", env("GITLAB_CI", "true"), "auto", "auto", "gitlab", false, "", 0},
		{"azure", env("TF_BUILD", "True", "SYSTEM_JOBATTEMPT", "3"), "auto", "auto", "azure", true, "", 3},
		{"--ci none under github", env("GITHUB_ACTIONS", "true", "GITHUB_STEP_SUMMARY", "/s"), "none", "auto", "", false, "", 0},
		{"--ci buildkite anywhere", env(), "buildkite", "auto", "buildkite", true, "", 0},
	}
	for _, tt := range tests {
		o := operateOptions{ci: tt.flag, ciGroups: "auto", ciAnnotations: tt.annotations}
		got, err := o.ciRun(io.Discard, tt.env)
		if err != nil {
			t.Fatalf("%s: %v", tt.name, err)
		}
		system := ""
		if got.system != nil {
			system = got.system.Name()
		}
		if system != tt.system || (got.annotator != nil) != tt.annotated || got.stepSummary != tt.stepSummary || got.jobAttempt != tt.jobAttempt {
			t.Errorf("%s: got %s, annotated %v, step summary %q, job attempt %d", tt.name, system, got.annotator != nil, got.stepSummary, got.jobAttempt)
		}
	}
}

func TestAttemptRowsHookAndReset(t *testing.T) {
	rows := attemptRows(results()[runner.Exhausted], (*redact.Redactor)(nil))
	want := []attemptRow{
		{"1", "+1.00s", "0.21s", "exit 1", "retryable", "1.00s", "default: exit 1 may be transient"},
		{"2", "+2.00s", "1h", "exit 1", "retryable", "1.00s (backoff reset)", "default: exit 1 may be transient; --on-retry failed after 0.05s: exit 3"},
		{"3", "+3.00s", "0.21s", "exit 1", "retryable", "-", "default: exit 1 may be transient"},
	}
	checkRows(t, rows.rows, want)
	var b bytes.Buffer
	writeMarkdown(&b, "sh", []string{"sh"}, "gave up", rows)
	if !strings.Contains(b.String(), "| 1.00s (backoff reset) | default: exit 1 may be transient; --on-retry failed after 0.05s: exit 3 |") {
		t.Errorf("writeMarkdown lacks the hook and the reset:\n%s", b.String())
	}
}

func checkRows(t *testing.T, rows, want []attemptRow) {
	t.Helper()
	if len(rows) != len(want) {
		t.Fatalf("got %d rows, want %d", len(rows), len(want))
	}
	for i := range want {
		if rows[i] != want[i] {
			t.Errorf("row %d:\n got %q\nwant %q", i, rows[i], want[i])
		}
	}
}
