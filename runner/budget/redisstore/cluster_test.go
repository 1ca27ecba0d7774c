package redisstore

import (
	"context"
	"errors"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/b0a38808/retry/internal/redistest"
)

// cluster starts a three-primary Redis Cluster for the test, or skips it.
func cluster(t *testing.T) *redistest.Cluster {
	t.Helper()
	c, err := redistest.StartCluster(t.TempDir(), 3)
	if errors.Is(err, redistest.ErrNoServer) || errors.Is(err, redistest.ErrNoCLI) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Stop)
	return c
}

// fleet counts what a fleet of stores did: first attempts recorded and
// retries allowed, and the first error.
type fleet struct {
	firsts, retries atomic.Int64
	mu              sync.Mutex
	err             error
}

// run makes n invocations at once, each on machines[i % len], each
// counting a first attempt and asking for 2 retries.
func (f *fleet) run(machines []*Store, n int) {
	ctx := context.Background()
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() {
			m := machines[i%len(machines)]
			if _, err := m.RecordFirst(ctx, time.Time{}); err != nil {
				f.fail(err)
				return
			}
			f.firsts.Add(1)
			for range 2 {
				ok, _, err := m.TryRetry(ctx, time.Time{})
				if err != nil {
					f.fail(err)
					return
				}
				if ok {
					f.retries.Add(1)
				}
			}
		})
	}
	wg.Wait()
}

func (f *fleet) fail(err error) {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.err == nil {
		f.err = err
	}
}

// check fails the test when a call failed or the window does not hold
// exactly what the fleet was told.
func (f *fleet) check(t *testing.T, when string, s *Store) {
	t.Helper()
	if f.err != nil {
		t.Fatalf("%s: %v", when, f.err)
	}
	snap, err := s.Peek(context.Background())
	if err != nil {
		t.Fatalf("%s: peek: %v", when, err)
	}
	if snap.Firsts != f.firsts.Load() || snap.Retries != f.retries.Load() {
		t.Fatalf("%s: the window holds %d firsts and %d retries, the fleet was told %d and %d", when, snap.Firsts, snap.Retries, f.firsts.Load(), f.retries.Load())
	}
}

// TestCluster: machines that enter a three-primary Cluster through
// different nodes share one exact budget, and find it again, with no
// error and nothing lost, after its slot moved between two runs and while
// it moves during one.
func TestCluster(t *testing.T) {
	c := cluster(t)
	slot := hashSlot(Key("fleet", "window"))
	got, err := c.Nodes[0].Do("CLUSTER", "KEYSLOT", Key("fleet", "slots"))
	if err != nil || got != int64(slot) {
		t.Fatalf("the server puts the slots' key in slot %v (%v), ours is %d", got, err, slot)
	}
	var machines []*Store
	for i := range 6 {
		machines = append(machines, open(t, c.Nodes[i%3].URL(), "fleet", Options{}))
	}
	var f fleet
	f.run(machines, 60)
	f.check(t, "first run", machines[0])
	// 10 + 0.1 × 60 = 16 retries at most, and the floor's 10 at least.
	if r := f.retries.Load(); r < 10 || r > 16 {
		t.Fatalf("%d retries allowed, want 10 to 16", r)
	}

	owner, err := c.Owner(slot)
	if err != nil {
		t.Fatal(err)
	}
	next := func(s *redistest.Server) *redistest.Server {
		for i, n := range c.Nodes {
			if n == s {
				return c.Nodes[(i+1)%3]
			}
		}
		return nil
	}
	// Between runs: every machine knows the old owner, or its entry node.
	if err := c.MoveSlot(slot, next(owner), nil); err != nil {
		t.Fatal(err)
	}
	f.run(machines, 30)
	f.check(t, "after the slot moved", machines[1])

	// During a run: machines keep asking while the slot is marked, while
	// its keys are on the new node but the slot is not yet, and after.
	stop := make(chan struct{})
	var bg sync.WaitGroup
	bg.Go(func() {
		for {
			select {
			case <-stop:
				return
			default:
				f.run(machines, 6)
			}
		}
	})
	stages := 0
	err = c.MoveSlot(slot, next(next(owner)), func(stage string) {
		stages++
		f.run(machines, 12)
	})
	close(stop)
	bg.Wait()
	if err != nil {
		t.Fatal(err)
	}
	if stages != 2 {
		t.Fatalf("%d stages of the move, want 2", stages)
	}
	f.check(t, "while the slot moved", machines[2])
	if n, err := next(next(owner)).Do("CLUSTER", "COUNTKEYSINSLOT", strconv.Itoa(slot)); err != nil || n.(int64) < 1 {
		t.Fatalf("the new owner holds %v keys of the slot (%v)", n, err)
	}
}

// TestClusterCap: a --max-concurrent cap holds across machines that enter
// the Cluster through different nodes.
func TestClusterCap(t *testing.T) {
	c := cluster(t)
	var machines []*Store
	for i := range 3 {
		machines = append(machines, open(t, c.Nodes[i].URL(), "cap", Options{}))
	}
	checkCap(t, machines, 2, 12)
}
