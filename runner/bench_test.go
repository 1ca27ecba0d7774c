package runner

import (
	"context"
	"os"
	"os/exec"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
)

// BenchmarkRun measures one operation whose first attempt succeeds (the
// command `true`), and os/exec running the same command alone, as
// bench/floor does. Both are dominated by fork, exec and wait; the
// allocations are the stable figure. The process's own start-up, which
// these in-process loops cannot see, is measured by bench/startup.sh.
//
//	go test -run '^$' -bench Run -benchmem ./runner/
func BenchmarkRun(b *testing.B) {
	path, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true command:", err)
	}
	b.Run("exec", func(b *testing.B) {
		b.ReportAllocs()
		for b.Loop() {
			c := exec.Command(path)
			c.Stdin, c.Stdout, c.Stderr = os.Stdin, os.Stdout, os.Stderr
			if err := c.Run(); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("runner", func(b *testing.B) {
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
	})
}
