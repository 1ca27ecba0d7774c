package redisstore

import (
	"context"
	"errors"
	"net"
	"os"
	"os/exec"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/budget"
	"github.com/b0a38808/retry/runner/budget/redisstore/redistest"
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
	_, err := s.c.do(ctx, "SCRIPT", "FLUSH")
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
	ctx := context.Background()
	var machines []*Store
	for range 3 {
		machines = append(machines, open(t, srv.URL(), "cap", Options{}))
	}
	var running, peak, done atomic.Int64
	var wg sync.WaitGroup
	for i := range 24 {
		wg.Go(func() {
			slot, err := machines[i%3].Acquire(ctx, 4, time.Now().Add(30*time.Second))
			if err != nil {
				t.Error(err)
				return
			}
			n := running.Add(1)
			for p := peak.Load(); n > p && !peak.CompareAndSwap(p, n); p = peak.Load() {
			}
			time.Sleep(20 * time.Millisecond)
			running.Add(-1)
			done.Add(1)
			if err := slot.Release(); err != nil {
				t.Error(err)
			}
		})
	}
	wg.Wait()
	if peak.Load() > 4 || done.Load() != 24 {
		t.Fatalf("peak %d holders, %d done; want at most 4, and 24", peak.Load(), done.Load())
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

// TestMain runs the test binary as a slot holder when asked to: the
// SIGKILL test kills it.
func TestMain(m *testing.M) {
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

// TestUnavailable: a stopped server, one that never answers, and a wrong
// password are StoreErrors that never show the password; the deadline
// bounds a call too.
func TestUnavailable(t *testing.T) {
	ctx := context.Background()
	srv := server(t, redistest.Config{Password: "hunter2-secret"})

	wrong := strings.Replace(srv.URL(), "hunter2-secret", "wrong-secret", 1)
	_, err := open(t, wrong, "u", Options{}).RecordFirst(ctx, time.Time{})
	checkStoreError(t, "wrong password", err, "WRONGPASS")

	noPass := strings.Replace(srv.URL(), ":hunter2-secret@", "", 1)
	_, err = open(t, noPass, "u", Options{}).RecordFirst(ctx, time.Time{})
	checkStoreError(t, "no password", err, "NOAUTH")

	right := open(t, srv.URL(), "u", Options{})
	if _, err := right.RecordFirst(ctx, time.Time{}); err != nil {
		t.Fatalf("right password: %v", err)
	}
	srv.Stop()
	start := time.Now()
	_, _, err = right.TryRetry(ctx, time.Time{})
	checkStoreError(t, "stopped", err, "")
	if took := time.Since(start); took > 2*time.Second {
		t.Fatalf("a stopped server took %v to fail", took)
	}

	// A server that accepts and never answers: the real 1 s bound.
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer ln.Close()
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			defer c.Close()
		}
	}()
	silent := open(t, "redis://:hunter2-secret@"+ln.Addr().String(), "u", Options{})
	start = time.Now()
	_, err = silent.RecordFirst(ctx, time.Time{})
	took := time.Since(start)
	checkStoreError(t, "silent", err, "no answer within 1s")
	if took < 900*time.Millisecond || took > 5*time.Second {
		t.Fatalf("a silent server failed after %v, want about 1s", took)
	}
	// The deadline, when it comes first, ends the call with ErrDeadline.
	start = time.Now()
	_, err = silent.RecordFirst(ctx, time.Now().Add(100*time.Millisecond))
	if !errors.Is(err, budget.ErrDeadline) || time.Since(start) > 800*time.Millisecond {
		t.Fatalf("deadline in 100ms: %v after %v, want %v at once", err, time.Since(start), budget.ErrDeadline)
	}
}

func checkStoreError(t *testing.T, what string, err error, want string) {
	t.Helper()
	var se *budget.StoreError
	if !errors.As(err, &se) {
		t.Fatalf("%s: %v (%T), want a *budget.StoreError", what, err, err)
	}
	msg := err.Error()
	if !strings.Contains(msg, "budget store redis://") || !strings.Contains(msg, want) {
		t.Fatalf("%s: %q, want one naming the budget store and %q", what, msg, want)
	}
	if strings.Contains(msg, "secret") {
		t.Fatalf("%s: %q shows the password", what, msg)
	}
}

// TestTLS: rediss:// with the server's CA among the system roots
// (SSL_CERT_FILE) works; without it, the certificate is refused.
func TestTLS(t *testing.T) {
	srv := server(t, redistest.Config{TLS: true, Password: "tls-secret"})
	ctx := context.Background()
	t.Setenv("SSL_CERT_FILE", srv.CAFile)
	s := open(t, srv.URL(), "tls", Options{})
	if _, err := s.RecordFirst(ctx, time.Time{}); err != nil {
		t.Fatalf("over TLS: %v", err)
	}
	plain := strings.Replace(srv.URL(), "rediss://", "redis://", 1)
	_, err := open(t, plain, "tls", Options{Timeout: 300 * time.Millisecond}).RecordFirst(ctx, time.Time{})
	checkStoreError(t, "plain text to a TLS port", err, "")
}

// TestRefusing: a server that refuses the scripts' writes (a read-only
// replica, one out of memory) is a StoreError that says why.
func TestRefusing(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		want string
	}{
		{"read-only replica", []string{"--replicaof", "127.0.0.1", "1"}, "READONLY"},
		{"out of memory", []string{"--maxmemory", "1"}, "OOM"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			srv := server(t, redistest.Config{Args: tc.args})
			_, err := open(t, srv.URL(), "refused", Options{}).RecordFirst(context.Background(), time.Time{})
			checkStoreError(t, tc.name, err, tc.want)
		})
	}
}
