package redisstore

import (
	"context"
	"path/filepath"
	"testing"
	"time"

	"github.com/b0a38808/retry/internal/redistest"
	"github.com/b0a38808/retry/runner/budget"
)

// benchServer starts a redis-server for a benchmark, or skips it.
func benchServer(b *testing.B) *redistest.Server {
	s, err := redistest.Start(b.TempDir(), redistest.Config{})
	if err != nil {
		b.Skip(err)
	}
	b.Cleanup(s.Stop)
	return s
}

// BenchmarkAdmission is one admission decision (a first attempt counted)
// through Redis on loopback, on an open connection, against the same
// decision in the local file budget (lock, read, write, rename), measured
// in the same run. bench/budgetstore.sh runs it.
func BenchmarkAdmission(b *testing.B) {
	ctx := context.Background()
	b.Run("local-file", func(b *testing.B) {
		l, err := budget.Open(filepath.Join(b.TempDir(), "state"), "bench", budget.DefaultPolicy(), nil)
		if err != nil {
			b.Fatal(err)
		}
		defer l.Close()
		for b.Loop() {
			if _, err := l.RecordFirst(ctx, time.Time{}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("redis", func(b *testing.B) {
		a, _ := ParseURL(benchServer(b).URL())
		s, _ := Open(a, "bench", budget.DefaultPolicy(), Options{})
		defer s.Close()
		for b.Loop() {
			if _, err := s.RecordFirst(ctx, time.Time{}); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkInvocations is what one invocation of retry asks of the store,
// from many at once for one budget: connect, count the first attempt, ask
// for a retry, and (capped) take and release a slot; ns/op over the
// parallel clients gives the invocations per second one Redis serves.
func BenchmarkInvocations(b *testing.B) {
	ctx := context.Background()
	for _, capped := range []bool{false, true} {
		name := "uncapped"
		if capped {
			name = "capped"
		}
		b.Run(name, func(b *testing.B) {
			a, _ := ParseURL(benchServer(b).URL())
			b.SetParallelism(8)
			b.RunParallel(func(pb *testing.PB) {
				for pb.Next() {
					s, _ := Open(a, "bench", budget.DefaultPolicy(), Options{})
					var slot *budget.Slot
					var err error
					if capped {
						if slot, err = s.Acquire(ctx, budget.MaxSlots, time.Time{}); err != nil {
							b.Error(err)
							return
						}
					}
					if _, err := s.RecordFirst(ctx, time.Time{}); err != nil {
						b.Error(err)
						return
					}
					if _, _, err := s.TryRetry(ctx, time.Time{}); err != nil {
						b.Error(err)
						return
					}
					if err := slot.Release(); err != nil {
						b.Error(err)
						return
					}
					s.Close()
				}
			})
		})
	}
}
