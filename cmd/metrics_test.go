package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"

	dto "github.com/prometheus/client_model/go"
	"github.com/prometheus/common/expfmt"
	"github.com/prometheus/common/model"

	"github.com/b0a38808/retry/runner"
)

// parseMetrics parses a metrics file with Prometheus' own text parser.
func parseMetrics(t *testing.T, data []byte) map[string]*dto.MetricFamily {
	t.Helper()
	p := expfmt.NewTextParser(model.UTF8Validation)
	families, err := p.TextToMetricFamilies(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the Prometheus text parser rejects the file: %v\n%s", err, data)
	}
	return families
}

// sample returns the value of the one series of family name whose labels
// include want, and whether there is one.
func sample(families map[string]*dto.MetricFamily, name string, want map[string]string) (float64, bool) {
	f, ok := families[name]
	if !ok {
		return 0, false
	}
	for _, m := range f.GetMetric() {
		labels := map[string]string{}
		for _, l := range m.GetLabel() {
			labels[l.GetName()] = l.GetValue()
		}
		match := true
		for k, v := range want {
			match = match && labels[k] == v
		}
		if match {
			return m.GetGauge().GetValue(), true
		}
	}
	return 0, false
}

// TestMetricsParse writes the metrics of every outcome and reads them
// back with the Prometheus parser: every family is a gauge with help,
// every series carries the job label, and the outcome series say which.
func TestMetricsParse(t *testing.T) {
	codes := map[runner.Outcome]int{
		runner.Succeeded: 0, runner.Permanent: 127, runner.Exhausted: 1,
		runner.Deadline: 124, runner.Cancelled: 130, runner.Budget: 1,
		runner.Failed: 3, runner.Passed: 0,
	}
	end := time.Date(2026, 11, 30, 7, 0, 12, 345e6, time.UTC)
	for outcome, res := range results() {
		t.Run(string(outcome), func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "job.prom")
			if err := writeMetrics(path, "nightly-backup", res, codes[outcome], end); err != nil {
				t.Fatal(err)
			}
			data, err := os.ReadFile(path)
			if err != nil {
				t.Fatal(err)
			}
			families := parseMetrics(t, data)
			for name, f := range families {
				if f.GetType() != dto.MetricType_GAUGE || f.GetHelp() == "" {
					t.Errorf("%s: type %v, help %q; want a gauge with help", name, f.GetType(), f.GetHelp())
				}
				for _, m := range f.GetMetric() {
					if v, _ := labelValue(m, "job"); v != "nightly-backup" {
						t.Errorf("%s: job label %q", name, v)
					}
				}
			}
			job := map[string]string{"job": "nightly-backup"}
			checks := map[string]float64{
				metricLastRun:  1796022012.345,
				metricAttempts: float64(len(res.Attempts)),
				metricDuration: res.Elapsed.Seconds(),
				metricExitCode: float64(codes[outcome]),
			}
			for name, want := range checks {
				if got, ok := sample(families, name, job); !ok || got != want {
					t.Errorf("%s = %v (present %v), want %v", name, got, ok, want)
				}
			}
			got, ok := sample(families, metricLastSuccess, job)
			// A run until a failure that found none succeeded.
			succeeded := outcome == runner.Succeeded || outcome == runner.Passed
			if succeeded && (!ok || got != 1796022012.345) {
				t.Errorf("%s = %v (present %v) after a success, want the end time", metricLastSuccess, got, ok)
			}
			if !succeeded && ok {
				t.Errorf("%s = %v without any success, want it absent", metricLastSuccess, got)
			}
			if n := len(families[metricOutcome].GetMetric()); n != len(outcomes) {
				t.Errorf("%d outcome series, want %d", n, len(outcomes))
			}
			for _, o := range outcomes {
				want := 0.0
				if o == outcome {
					want = 1
				}
				if got, ok := sample(families, metricOutcome, map[string]string{"job": "nightly-backup", "outcome": string(o)}); !ok || got != want {
					t.Errorf("%s{outcome=%q} = %v (present %v), want %v", metricOutcome, o, got, ok, want)
				}
			}
		})
	}
}

func labelValue(m *dto.Metric, name string) (string, bool) {
	for _, l := range m.GetLabel() {
		if l.GetName() == name {
			return l.GetValue(), true
		}
	}
	return "", false
}

// TestMetricsKeepLastSuccess: a run that fails keeps the success time of
// the file it replaces; a file of another job's does not count.
func TestMetricsKeepLastSuccess(t *testing.T) {
	path := filepath.Join(t.TempDir(), "job.prom")
	all := results()
	t1 := time.Date(2026, 11, 30, 2, 15, 0, 0, time.UTC)
	t2 := t1.Add(24 * time.Hour)
	t3 := t2.Add(24 * time.Hour)
	if err := writeMetrics(path, "backup", all[runner.Succeeded], 0, t1); err != nil {
		t.Fatal(err)
	}
	if err := writeMetrics(path, "backup", all[runner.Exhausted], 1, t2); err != nil {
		t.Fatal(err)
	}
	data, _ := os.ReadFile(path)
	families := parseMetrics(t, data)
	job := map[string]string{"job": "backup"}
	if got, ok := sample(families, metricLastSuccess, job); !ok || got != float64(t1.Unix()) {
		t.Errorf("after a failure, %s = %v (present %v), want the earlier success %v", metricLastSuccess, got, ok, t1.Unix())
	}
	if got, _ := sample(families, metricLastRun, job); got != float64(t2.Unix()) {
		t.Errorf("%s = %v, want %v", metricLastRun, got, t2.Unix())
	}
	// A second failure still keeps it: it is carried from file to file.
	if err := writeMetrics(path, "backup", all[runner.Deadline], 124, t3); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if got, ok := sample(parseMetrics(t, data), metricLastSuccess, job); !ok || got != float64(t1.Unix()) {
		t.Errorf("after two failures, %s = %v (present %v), want %v", metricLastSuccess, got, ok, t1.Unix())
	}
	// Another job's success is not this one's.
	if err := writeMetrics(path, "restore", all[runner.Exhausted], 1, t3); err != nil {
		t.Fatal(err)
	}
	data, _ = os.ReadFile(path)
	if got, ok := sample(parseMetrics(t, data), metricLastSuccess, nil); ok {
		t.Errorf("job restore took over backup's success time %v", got)
	}
}

// TestMetricsLabelEscaping: a label value with the characters the format
// escapes reads back as it was.
func TestMetricsLabelEscaping(t *testing.T) {
	name := "a\"b\\c\nd"
	data := metricsText(name, results()[runner.Succeeded], 0, time.Unix(1, 0), 0)
	if got, ok := sample(parseMetrics(t, data), metricAttempts, map[string]string{"job": name}); !ok || got != 3 {
		t.Errorf("no series for job %q (got %v, %v):\n%s", name, got, ok, data)
	}
	if strings.Count(string(data), "\n") != strings.Count(string(metricsText("x", results()[runner.Succeeded], 0, time.Unix(1, 0), 0)), "\n") {
		t.Errorf("the line feed in the name was not escaped:\n%s", data)
	}
}

func TestMetricsMode(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("Windows has no Unix file modes")
	}
	path := filepath.Join(t.TempDir(), "job.prom")
	if err := os.WriteFile(path, []byte("old"), 0o600); err != nil {
		t.Fatal(err)
	}
	if err := writeMetrics(path, "x", results()[runner.Succeeded], 0, time.Now()); err != nil {
		t.Fatal(err)
	}
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if fi.Mode().Perm() != 0o644 {
		t.Errorf("mode %v, want 0644 for node_exporter to read it", fi.Mode().Perm())
	}
}
