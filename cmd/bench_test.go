package cmd

import (
	"fmt"
	"io"
	"os/exec"
	"path/filepath"
	"testing"
	"time"
)

// BenchmarkExecute measures what cmd adds around the runner for a command
// whose first attempt succeeds: the cobra tree, flag parsing and checks,
// signal set-up, the output watch (stderr is not a terminal here, so hints
// are read) and the exit status. Compare with BenchmarkRun in runner. The
// first-run costs of a new process (page faults, package init) are not
// seen here; bench/startup.sh measures those.
//
//	go test -run '^$' -bench Execute -benchmem ./cmd/
func BenchmarkExecute(b *testing.B) {
	path, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true command:", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if st := execute("bench", []string{"--", path}, io.Discard, io.Discard); st.code != 0 {
			b.Fatalf("exit status %d; want 0", st.code)
		}
	}
}

// BenchmarkLongRun measures what cmd does per attempt of a long run, and
// at its end, for 1,000, 10,000 and 100,000 failed attempts: each
// attempt's progress line (redacted, written to nowhere; ns/attempt), then
// the summary text table, the report and the metrics file (µs/end, mostly
// the two files' fsync). Both are the same at each size: nothing cmd does
// grows with the attempts before it, and what it writes at the end holds
// at most runner.KeepFirst+KeepLast of them. The runner's own share is BenchmarkResultAdd in runner; a whole
// run, processes included, is bench/attempts.sh.
//
//	go test -run '^$' -bench LongRun -benchmem ./cmd/
func BenchmarkLongRun(b *testing.B) {
	dir := b.TempDir()
	for _, total := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprint("attempts=", total), func(b *testing.B) {
			res := longResult(total)
			a := res.Attempts[0]
			var each, end time.Duration
			b.ReportAllocs()
			for b.Loop() {
				p := &reporter{
					w: io.Discard, mode: summaryText, givenName: "false", command: []string{"false"},
					summaryFile: filepath.Join(dir, "report.json"), metricsFile: filepath.Join(dir, "retry.prom"),
					getenv: func(string) string { return "" }, now: time.Now,
				}
				start := time.Now()
				for n := 1; n <= total; n++ {
					a.Number = n
					p.AttemptStarted(&a, 0)
					p.AttemptFinished(&a, 0, n < total)
				}
				finish := time.Now()
				p.finish(res, 0, 1)
				each += finish.Sub(start)
				end += time.Since(finish)
			}
			b.ReportMetric(float64(each.Nanoseconds())/float64(b.N*total), "ns/attempt")
			b.ReportMetric(float64(end.Microseconds())/float64(b.N), "µs/end")
		})
	}
}
