package runner

import (
	"context"
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
