package cmd

import (
	"bufio"
	"bytes"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/b0a38808/retry/runner"
)

// The metrics, as docs/metrics.md names them.
const (
	metricLastRun     = "retry_last_run_timestamp_seconds"
	metricLastSuccess = "retry_last_success_timestamp_seconds"
	metricAttempts    = "retry_last_attempts"
	metricDuration    = "retry_last_duration_seconds"
	metricExitCode    = "retry_last_exit_code"
	metricOutcome     = "retry_last_outcome"
	metricFlaky       = "retry_last_flaky"
)

// outcomes are every outcome, in the order the metrics file lists them.
var outcomes = []runner.Outcome{runner.Succeeded, runner.Permanent, runner.Exhausted, runner.Deadline, runner.Cancelled, runner.Budget, runner.Failed, runner.Passed}

// metricsText renders the Prometheus text exposition of an operation
// named name that ended at end with res and exit status code.
// lastSuccess is the previous success time (0 for none), kept when this
// run did not succeed.
func metricsText(name string, res *runner.Result, code int, end time.Time, lastSuccess float64) []byte {
	var b bytes.Buffer
	job := `job="` + escapeLabel(name) + `"`
	gauge := func(metric, help, labels string, v float64) {
		fmt.Fprintf(&b, "# HELP %s %s\n# TYPE %s gauge\n", metric, help, metric)
		if labels != "" {
			fmt.Fprintf(&b, "%s{%s} %s\n", metric, labels, formatValue(v))
		}
	}
	now := float64(end.UnixMilli()) / 1000
	gauge(metricLastRun, "When the last run of the operation ended, in seconds since the epoch.", job, now)
	if res.Outcome == runner.Succeeded || res.Outcome == runner.Passed {
		lastSuccess = now // a run until a failure that found none succeeded
	}
	if lastSuccess > 0 {
		gauge(metricLastSuccess, "When a run of the operation last succeeded, in seconds since the epoch.", job, lastSuccess)
	}
	gauge(metricAttempts, "How many attempts the last run made.", job, float64(res.Total))
	gauge(metricDuration, "How long the last run took, waits included, in seconds.", job, res.Elapsed.Seconds())
	gauge(metricExitCode, "The exit status of retry in the last run.", job, float64(code))
	isFlaky := 0.0
	if flaky(res) {
		isFlaky = 1
	}
	gauge(metricFlaky, "Whether the last run was a flaky pass, an attempt that succeeded after a failed one: 1 or 0.", job, isFlaky)
	gauge(metricOutcome, "How the last run ended: 1 for its outcome, 0 for the others.", "", 0)
	for _, o := range outcomes {
		v := 0.0
		if o == res.Outcome {
			v = 1
		}
		fmt.Fprintf(&b, "%s{%s,outcome=\"%s\"} %s\n", metricOutcome, job, escapeLabel(string(o)), formatValue(v))
	}
	return b.Bytes()
}

// escapeLabel escapes a label value as the text format requires: a
// backslash, a double quote and a line feed get a backslash.
func escapeLabel(s string) string {
	return strings.NewReplacer(`\`, `\\`, `"`, `\"`, "\n", `\n`).Replace(s)
}

// formatValue writes a sample value as the text format reads it.
func formatValue(v float64) string {
	return strconv.FormatFloat(v, 'f', -1, 64)
}

// previousSuccess reads the success time of the operation named name
// from the metrics file at path, as metricsText wrote it: 0 when the file
// is missing, unreadable or holds none.
func previousSuccess(path, name string) float64 {
	// Only a regular file is read: a FIFO or a terminal would block.
	if fi, err := os.Stat(path); err != nil || !fi.Mode().IsRegular() {
		return 0
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return 0
	}
	prefix := metricLastSuccess + `{job="` + escapeLabel(name) + `"}`
	sc := bufio.NewScanner(bytes.NewReader(data))
	for sc.Scan() {
		rest, ok := strings.CutPrefix(sc.Text(), prefix)
		if !ok {
			continue
		}
		fields := strings.Fields(rest) // the value, then maybe a timestamp
		if len(fields) == 0 {
			continue
		}
		v, err := strconv.ParseFloat(fields[0], 64)
		if err == nil && v > 0 && !math.IsInf(v, 0) {
			return v
		}
	}
	return 0
}

// writeMetrics writes the metrics file of an operation named name that
// ended with res and exit status code, atomically and with mode 0644, so
// that node_exporter, which runs as another user, can read it. A path that
// is a symbolic link is followed, and a device or a FIFO written into, as
// for --summary-file.
func writeMetrics(path, name string, res *runner.Result, code int, end time.Time) error {
	target, err := followLinks(path)
	if err != nil {
		return err
	}
	data := metricsText(name, res, code, end, previousSuccess(target, name))
	return replaceFile(target, ".retry-metrics-*", data, 0o644)
}

// writeMetricsFile writes --metrics-file, if asked, and says on stderr
// when it cannot: the exit status stays the operation's.
func (p *reporter) writeMetricsFile(res *runner.Result, code int) {
	if p.metricsFile == "" {
		return
	}
	if err := writeMetrics(p.metricsFile, p.name(), res, code, p.now()); err != nil {
		errorf(p.w, "--metrics-file: cannot write %s: %s", p.metricsFile, pathErrorText(err))
	}
}
