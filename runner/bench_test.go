package runner

import (
	"context"
	"fmt"
	"os/exec"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
)

// BenchmarkRun measures one operation whose first attempt succeeds (the
// command `true`), as Run does it for every such operation once the process
// is up. The time is mostly fork, exec and wait, and varies with the
// machine's load; the allocations are the stable figure. The process's own
// start-up, which an in-process loop cannot see, is measured by
// bench/startup.sh.
//
//	go test -run '^$' -bench Run -benchmem ./runner/
func BenchmarkRun(b *testing.B) {
	path, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true command:", err)
	}
	cfg := Config{
		Command:   []string{path},
		Attempts:  3,
		KillAfter: 10 * time.Second,
		Backoff:   backoff.Policy{Base: time.Second, Cap: 30 * time.Second},
	}
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		res, err := Run(ctx, cfg)
		if err != nil {
			b.Fatal(err)
		}
		if res.Outcome != Succeeded || len(res.Attempts) != 1 {
			b.Fatalf("outcome %s after %d attempts; want succeeded after 1", res.Outcome, len(res.Attempts))
		}
	}
}

// BenchmarkResultAdd measures what recording an attempt costs the Result
// at the 1,000th, 10,000th and 100,000th attempt: the same, since past
// KeepFirst+KeepLast attempts it keeps as many and moves at most KeepLast.
// ns/attempt is the figure; B/op stays that of the first 200 attempts.
//
//	go test -run '^$' -bench ResultAdd -benchmem ./runner/
func BenchmarkResultAdd(b *testing.B) {
	for _, total := range []int{1_000, 10_000, 100_000} {
		b.Run(fmt.Sprint("attempts=", total), func(b *testing.B) {
			b.ReportAllocs()
			for b.Loop() {
				var res Result
				for n := 1; n <= total; n++ {
					res.add(n).ExitCode = 1
				}
			}
			b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(b.N*total), "ns/attempt")
		})
	}
}
