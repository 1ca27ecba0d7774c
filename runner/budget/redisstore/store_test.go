package redisstore

import (
	"context"
	"errors"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/b0a38808/retry/internal/redistest"
	"github.com/b0a38808/retry/runner/budget"
)

// server starts a redis-server for the test, or skips it when there is
// none.
func server(t *testing.T, cfg redistest.Config) *redistest.Server {
	t.Helper()
	s, err := redistest.Start(t.TempDir(), cfg)
	if errors.Is(err, redistest.ErrNoServer) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(s.Stop)
	return s
}

func mkdir(t *testing.T, dir string) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o700); err != nil {
		t.Fatal(err)
	}
}

func open(t *testing.T, url, name string, o Options) *Store {
	t.Helper()
	a, err := ParseURL(url)
	if err != nil {
		t.Fatal(err)
	}
	s, err := Open(a, name, budget.DefaultPolicy(), o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { s.Close() })
	return s
}

// TestSharedCount: 4 machines, 50 invocations each at once, each counting
// a first attempt and asking for 3 retries: the window holds exactly 200
// first attempts and the allowance's 30 retries, however they interleave.
func TestSharedCount(t *testing.T) {
	srv := server(t, redistest.Config{})
	ctx := context.Background()
	var machines []*Store
	for range 4 {
		machines = append(machines, open(t, srv.URL(), "shared", Options{}))
	}
	var allowed atomic.Int64
	var wg sync.WaitGroup
	errs := make(chan error, 200)
	for i := range 200 {
		wg.Go(func() {
			m := machines[i%4]
			if _, err := m.RecordFirst(ctx, time.Time{}); err != nil {
				errs <- err
				return
			}
			for range 3 {
				ok, _, err := m.TryRetry(ctx, time.Time{})
				if err != nil {
					errs <- err
					return
				}
				if ok {
					allowed.Add(1)
				}
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Fatal(err)
	}
	snap, err := machines[0].Peek(ctx)
	if err != nil {
		t.Fatal(err)
	}
	// 10 + 0.1 × 200 = 30 retries: some may be granted before all first
	// attempts are in, never more than the final allowance.
	if snap.Firsts != 200 || snap.Retries != allowed.Load() || snap.Allowance != 30 || snap.Retries > 30 || snap.Retries < 10 {
		t.Fatalf("window %+v with %d retries allowed, want 200 firsts, 10 to 30 retries, all counted", snap, allowed.Load())
	}
}

// TestWindowRule checks the rule in the script against budget.Policy.
func TestWindowRule(t *testing.T) {
	srv := server(t, redistest.Config{})
	ctx := context.Background()
	a, _ := ParseURL(srv.URL())
	s, err := Open(a, "rule", budget.Policy{Ratio: 0.25, Floor: 2}, Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Close()
	for range 8 {
		if _, err := s.RecordFirst(ctx, time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	var got []bool
	for range 5 {
		ok, _, err := s.TryRetry(ctx, time.Time{})
		if err != nil {
			t.Fatal(err)
		}
		got = append(got, ok)
	}
	// 2 + 0.25 × 8 = 4 retries.
	want := []bool{true, true, true, true, false}
	for i := range want {
		if got[i] != want[i] {
			t.Fatalf("retries allowed %v, want %v", got, want)
		}
	}
}

// TestScriptFlushed: a server that lost the scripts (restarted, SCRIPT
// FLUSH) gets them again.
func TestScriptFlushed(t *testing.T) {
	srv := server(t, redistest.Config{})
	ctx := context.Background()
	s := open(t, srv.URL(), "flush", Options{})
	if _, err := s.RecordFirst(ctx, time.Time{}); err != nil {
		t.Fatal(err)
	}
	s.mu.Lock()
	c, err := s.cl.primary(ctx)
	if err == nil {
		_, err = c.do(ctx, "SCRIPT", "FLUSH")
	}
	s.mu.Unlock()
	if err != nil {
		t.Fatal(err)
	}
	snap, err := s.RecordFirst(ctx, time.Time{})
	if err != nil || snap.Firsts != 2 {
		t.Fatalf("after SCRIPT FLUSH: %+v, %v; want 2 firsts", snap, err)
	}
}

// TestCap: 3 machines, 24 holders at once under a cap of 4: never more
// than 4 hold a slot at once, and all get one.
func TestCap(t *testing.T) {
	srv := server(t, redistest.Config{})
	var machines []*Store
	for range 3 {
		machines = append(machines, open(t, srv.URL(), "cap", Options{}))
	}
	checkCap(t, machines, 4, 24)
}

// checkCap has holders take one of n slots at once, on machines in turn,
// each for 10ms, and checks that never more than n held one at once, and
// that all got one.
func checkCap(t *testing.T, machines []*Store, n, holders int) {
	t.Helper()
	var running, peak, done atomic.Int64
	var wg sync.WaitGroup
	for i := range holders {
		wg.Go(func() {
			slot, err := machines[i%len(machines)].Acquire(context.Background(), n, time.Now().Add(30*time.Second))
			if err != nil {
				t.Error(err)
				return
			}
			r := running.Add(1)
			for p := peak.Load(); r > p && !peak.CompareAndSwap(p, r); p = peak.Load() {
			}
			time.Sleep(10 * time.Millisecond)
			running.Add(-1)
			done.Add(1)
			if err := slot.Release(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if peak.Load() > int64(n) || done.Load() != int64(holders) {
		t.Fatalf("peak %d holders, %d done; want at most %d, and %d", peak.Load(), done.Load(), n, holders)
	}
}

// TestLeaseRenewed: a holder keeps its slot past its lease while it runs,
// and a waiter's deadline comes first.
func TestLeaseRenewed(t *testing.T) {
	srv := server(t, redistest.Config{})
	ctx := context.Background()
	o := Options{Lease: 300 * time.Millisecond, Renew: 100 * time.Millisecond}
	holder := open(t, srv.URL(), "renew", o)
	slot, err := holder.Acquire(ctx, 1, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	other := open(t, srv.URL(), "renew", o)
	if _, err := other.Acquire(ctx, 1, time.Now().Add(time.Second)); !errors.Is(err, budget.ErrDeadline) {
		t.Fatalf("a second holder: %v, want %v", err, budget.ErrDeadline)
	}
	slot.Release()
	s, err := other.Acquire(ctx, 1, time.Now().Add(time.Second))
	if err != nil {
		t.Fatalf("after release: %v", err)
	}
	s.Release()
}

// TestMain runs the test binary as a slot holder when asked to (the
// SIGKILL test kills it), or to count one first attempt in a process of
// its own (the system's roots are read once by a process).
func TestMain(m *testing.M) {
	if url := os.Getenv("REDISSTORE_TEST_FIRST"); url != "" {
		a, err := ParseURL(url)
		if err == nil {
			var s *Store
			if s, err = Open(a, "first", budget.DefaultPolicy(), Options{}); err == nil {
				_, err = s.RecordFirst(context.Background(), time.Time{})
			}
		}
		if err != nil {
			os.Stdout.WriteString(err.Error())
			os.Exit(1)
		}
		os.Exit(0)
	}
	if url := os.Getenv("REDISSTORE_TEST_HOLD"); url != "" {
		a, _ := ParseURL(url)
		s, _ := Open(a, "killed", budget.DefaultPolicy(), Options{Lease: 500 * time.Millisecond, Renew: 100 * time.Millisecond})
		if _, err := s.Acquire(context.Background(), 1, time.Time{}); err != nil {
			os.Exit(3)
		}
		os.Stdout.WriteString("holding\n")
		time.Sleep(time.Minute)
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// TestHolderKilled: a holder killed by SIGKILL frees its slot when its
// lease runs out. (testscript/testdata/budget_store.txtar kills one with
// the real 15 s lease.)
func TestHolderKilled(t *testing.T) {
	srv := server(t, redistest.Config{})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "REDISSTORE_TEST_HOLD="+srv.URL())
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	buf := make([]byte, 8)
	if _, err := out.Read(buf); err != nil || !strings.HasPrefix(string(buf), "holding") {
		t.Fatalf("holder: %q, %v", buf, err)
	}
	// It renews its lease while it lives.
	s := open(t, srv.URL(), "killed", Options{})
	if _, err := s.Acquire(context.Background(), 1, time.Now().Add(time.Second)); !errors.Is(err, budget.ErrDeadline) {
		t.Fatalf("with the holder alive: %v, want %v", err, budget.ErrDeadline)
	}
	cmd.Process.Kill()
	cmd.Wait()
	killed := time.Now()
	slot, err := s.Acquire(context.Background(), 1, time.Now().Add(10*time.Second))
	if err != nil {
		t.Fatalf("after the holder was killed: %v", err)
	}
	slot.Release()
	if took := time.Since(killed); took > 5*time.Second {
		t.Fatalf("the slot was free %v after its holder died, want about its 500ms lease", took)
	}
}
