package redisstore

import (
	"context"
	"errors"
	"io"
	"net"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/internal/redistest"
	"github.com/b0a38808/retry/runner/budget"
)

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
	silent := open(t, "redis://:hunter2-secret@"+silentServer(t), "u", Options{})
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

// TestServerRestarted: a connection the server closed while it was idle,
// plain or TLS, is opened again before the next call, which goes on with
// no error.
func TestServerRestarted(t *testing.T) {
	for _, tc := range []struct {
		name  string
		start func(*testing.T, redistest.Config) *redistest.Server
	}{{"plain", server}, {"tls", tlsServer}} {
		t.Run(tc.name, func(t *testing.T) {
			srv := tc.start(t, redistest.Config{})
			url := srv.URL()
			if srv.CAFile != "" {
				url += "?cacert=" + srv.CAFile
			}
			ctx := context.Background()
			s := open(t, url, "restarted", Options{})
			if _, err := s.RecordFirst(ctx, time.Time{}); err != nil {
				t.Fatal(err)
			}
			if err := srv.Restart(); err != nil {
				t.Fatal(err)
			}
			time.Sleep(idle)
			if snap, err := s.RecordFirst(ctx, time.Time{}); err != nil || snap.Firsts != 1 {
				t.Fatalf("after a restart: %+v, %v; want 1 first (the server lost the other)", snap, err)
			}
		})
	}
}

// silentServer returns the address of a server that accepts connections
// and never answers.
func silentServer(t *testing.T) string {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ln.Close() })
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			// Read, and answer nothing, until the client hangs up.
			go func() { io.Copy(io.Discard, c); c.Close() }()
		}
	}()
	return ln.Addr().String()
}

func checkStoreError(t *testing.T, what string, err error, want string) {
	t.Helper()
	var se *budget.StoreError
	if !errors.As(err, &se) {
		t.Fatalf("%s: %v (%T), want a *budget.StoreError", what, err, err)
	}
	msg := err.Error()
	if !strings.HasPrefix(msg, "budget store ") || !strings.Contains(msg, want) {
		t.Fatalf("%s: %q, want one naming the budget store and %q", what, msg, want)
	}
	if strings.Contains(msg, "secret") {
		t.Fatalf("%s: %q shows the password", what, msg)
	}
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

// TestSocket: unix:// with db= reaches the server on its Unix socket, in
// that database, logging in with the URL's password.
func TestSocket(t *testing.T) {
	srv := server(t, redistest.Config{Socket: true, Password: "sock-secret"})
	ctx := context.Background()
	s := open(t, "unix://:sock-secret@"+srv.Socket+"?db=3", "sock", Options{})
	for range 2 {
		if _, err := s.RecordFirst(ctx, time.Time{}); err != nil {
			t.Fatal(err)
		}
	}
	for url, want := range map[string]int64{
		"unix://:sock-secret@" + srv.Socket + "?db=3": 2,
		srv.URL() + "/3": 2,
		srv.URL() + "/0": 0,
	} {
		if snap, err := open(t, url, "sock", Options{}).Peek(ctx); err != nil || snap.Firsts != want {
			t.Fatalf("%s: %+v, %v; want %d firsts", strings.ReplaceAll(url, "sock-secret", "***"), snap, err, want)
		}
	}
	_, err := open(t, "unix://:sock-secret@"+srv.Socket+".gone", "sock", Options{}).RecordFirst(ctx, time.Time{})
	checkStoreError(t, "no socket there", err, "no such file or directory")
}

// TestTimeoutParameter: timeout= bounds each call to a server that
// accepts and never answers, and the deadline still comes first.
func TestTimeoutParameter(t *testing.T) {
	addr := silentServer(t)
	ctx := context.Background()
	s := open(t, "redis://:t-secret@"+addr+"?timeout=300ms", "t", Options{})
	start := time.Now()
	_, err := s.RecordFirst(ctx, time.Time{})
	took := time.Since(start)
	checkStoreError(t, "timeout=300ms", err, "no answer within 300ms")
	if took < 250*time.Millisecond || took > 900*time.Millisecond {
		t.Fatalf("failed after %v, want about 300ms", took)
	}
	long := open(t, "redis://"+addr+"?timeout=5s", "t", Options{})
	start = time.Now()
	_, err = long.RecordFirst(ctx, time.Now().Add(200*time.Millisecond))
	if !errors.Is(err, budget.ErrDeadline) || time.Since(start) > 2*time.Second {
		t.Fatalf("timeout=5s, deadline in 200ms: %v after %v, want %v at the deadline", err, time.Since(start), budget.ErrDeadline)
	}
}
