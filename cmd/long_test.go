package cmd

import (
	"bytes"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/redact"
	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/classify"
)

// longResult returns the Result of an operation that made total attempts,
// each failing after a second, as the runner keeps it: the first
// runner.KeepFirst and the last runner.KeepLast.
func longResult(total int) *runner.Result {
	res := &runner.Result{Outcome: runner.Exhausted, Started: t0, Elapsed: time.Duration(total) * time.Second, IdempotencyKey: "k", Total: total}
	for n := 1; n <= total; n++ {
		if n > runner.KeepFirst && n <= total-runner.KeepLast {
			continue
		}
		res.Attempts = append(res.Attempts, runner.Attempt{
			Number: n, Started: t0.Add(time.Duration(n-1) * time.Second), Duration: 900 * time.Millisecond,
			Exit: exitcodes.Exit{ExitCode: 1}, Class: classify.Retryable, Reason: "default: exit 1 may be transient",
			Delay: 100 * time.Millisecond, HasDelay: n < total,
		})
	}
	return res
}

// TestLongRunReport: the report of 20,000 attempts lists the first 100
// and the last 100, counts them all, and keeps to the schema.
func TestLongRunReport(t *testing.T) {
	schema := loadSchema(t)
	for _, tt := range []struct {
		total   int
		omitted bool
	}{{runner.KeepFirst + runner.KeepLast, false}, {runner.KeepFirst + runner.KeepLast + 1, true}, {20_000, true}} {
		data, err := reportJSON(newReport("false", []string{"false"}, longResult(tt.total), 1, (*redact.Redactor)(nil)))
		if err != nil {
			t.Fatal(err)
		}
		rep := checkReport(t, schema, data)
		_, total := rep["attempts_total"]
		_, omitted := rep["attempts_omitted"]
		if total != tt.omitted || omitted != tt.omitted {
			t.Errorf("%d attempts: attempts_total present %v, attempts_omitted present %v; want %v", tt.total, total, omitted, tt.omitted)
		}
		if tt.omitted && (number(rep["attempts_total"]) != float64(tt.total) || number(rep["attempts_omitted"]) != float64(tt.total-200)) {
			t.Errorf("%d attempts: attempts_total %v, attempts_omitted %v", tt.total, rep["attempts_total"], rep["attempts_omitted"])
		}
	}
}

// TestLongRunSummary: the summary line counts every attempt; the table
// shows the first and the last ones, with one line for the gap, its
// columns as wide on both sides; the Markdown table has the same gap.
func TestLongRunSummary(t *testing.T) {
	res := longResult(20_000)
	if got, want := summaryLine(res, 20_000, 1, (*redact.Redactor)(nil)), "gave up after 20000 attempts in 5h33m20s: exit 1 (attempts exhausted)"; got != want {
		t.Errorf("summary line %q, want %q", got, want)
	}
	table := attemptRows(res, (*redact.Redactor)(nil))
	var b bytes.Buffer
	writeTable(&b, table)
	lines := strings.Split(strings.TrimSuffix(b.String(), "\n"), "\n")
	if len(lines) != 1+runner.KeepFirst+1+runner.KeepLast {
		t.Fatalf("%d lines, want a header, %d attempts, the gap and %d attempts", len(lines), runner.KeepFirst, runner.KeepLast)
	}
	if got, want := lines[1+runner.KeepFirst], "retry:   ... 19800 attempts not shown (101 to 19900) ..."; got != want {
		t.Errorf("gap line %q, want %q", got, want)
	}
	before, after := lines[runner.KeepFirst], lines[2+runner.KeepFirst]
	if !strings.HasPrefix(before, "retry:   100 ") || !strings.HasPrefix(after, "retry:   19901 ") {
		t.Errorf("around the gap:\n%s\n%s", before, after)
	}
	if strings.Index(before, "exit 1") != strings.Index(after, "exit 1") {
		t.Errorf("columns move across the gap:\n%s\n%s", before, after)
	}
	b.Reset()
	writeMarkdown(&b, "false", []string{"false"}, summaryLine(res, 0, 1, (*redact.Redactor)(nil)), table)
	md := b.String()
	if !strings.Contains(md, "\n| 100 | ") || !strings.Contains(md, "| 100 | +1m39s |") ||
		!strings.Contains(md, "|\n| ... 19800 attempts not shown (101 to 19900) ... | | | | | | |\n| 19901 | ") {
		t.Errorf("Markdown lacks the gap between attempts 100 and 19901:\n%s", md)
	}
	if n := strings.Count(md, "\n| "); n != 1+1+runner.KeepFirst+runner.KeepLast {
		t.Errorf("Markdown has %d table rows", n)
	}
}

// TestLongRunMetrics: the metrics count every attempt.
func TestLongRunMetrics(t *testing.T) {
	data := metricsText("false", longResult(20_000), 1, t0, 0)
	if !strings.Contains(string(data), "\nretry_last_attempts{job=\"false\"} 20000\n") {
		t.Errorf("the metrics do not count 20000 attempts:\n%s", data)
	}
}
