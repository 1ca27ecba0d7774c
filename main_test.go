//go:build linux

package main

import (
	"bytes"
	"encoding/pem"
	"errors"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"unsafe"

	"golang.org/x/sys/unix"
)

// TestPlainRunOpensNothing: retry links crypto/tls for a budget store
// over TLS, but a plain `retry -- true` neither connects to the store
// its environment names nor reads a certificate: the store's files
// (cacert=) nor the system's roots (SSL_CERT_FILE, SSL_CERT_DIR). The
// same runs with --budget show that both would be seen: a connection is
// counted by the store's listener, a file opened by inotify on the
// certificates' directory.
func TestPlainRunOpensNothing(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("go is not on PATH to build retry: %v", err)
	}
	retry := filepath.Join(t.TempDir(), "retry")
	if out, err := exec.Command("go", "build", "-o", retry, ".").CombinedOutput(); err != nil {
		t.Fatalf("go build: %v\n%s", err, out)
	}

	// The store: a TLS server that counts its connections (an HTTP one,
	// which answers RESP with an error: retry then fails open).
	var conns atomic.Int32
	srv := httptest.NewUnstartedServer(http.NotFoundHandler())
	srv.Listener = countingListener{srv.Listener, &conns}
	srv.StartTLS()
	t.Cleanup(srv.Close)
	addr := srv.Listener.Addr().String()

	certs := t.TempDir()
	ca := pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: srv.Certificate().Raw})
	for _, name := range []string{"ca.pem", "roots.pem", "dir/roots.pem"} {
		p := filepath.Join(certs, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, ca, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	opened := watchOpens(t, certs)

	// The environment, without what an enclosing retry or the host's
	// settings would pass on.
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "RETRY_") && !strings.HasPrefix(kv, "SSL_CERT_") {
			env = append(env, kv)
		}
	}
	byRoots := "rediss://" + addr + "/?timeout=2s"
	byCA := "rediss://" + addr + "/?timeout=2s&cacert=" + filepath.Join(certs, "ca.pem")
	for _, tc := range []struct {
		store    string
		args     []string
		connects bool
		reads    string // the file in certs that must be opened, if any
	}{
		{byRoots, []string{"--", "true"}, false, ""},
		{byCA, []string{"--", "true"}, false, ""},
		{byRoots, []string{"--budget", "b", "--", "true"}, true, "roots.pem"},
		{byCA, []string{"--budget", "b", "--", "true"}, true, "ca.pem"},
	} {
		conns.Store(0)
		cmd := exec.Command(retry, tc.args...)
		cmd.Env = append(env, "RETRY_BUDGET_STORE="+tc.store,
			"SSL_CERT_FILE="+filepath.Join(certs, "roots.pem"), "SSL_CERT_DIR="+filepath.Join(certs, "dir"))
		var stderr bytes.Buffer
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			t.Fatalf("RETRY_BUDGET_STORE=%s retry %q: %v\n%s", tc.store, tc.args, err, stderr.Bytes())
		}
		names := opened()
		switch {
		case !tc.connects && conns.Load() != 0:
			t.Errorf("RETRY_BUDGET_STORE=%s retry %q connected to the store %d times", tc.store, tc.args, conns.Load())
		case tc.connects && conns.Load() == 0:
			t.Errorf("RETRY_BUDGET_STORE=%s retry %q did not connect to the store: the test cannot see a connection\n%s", tc.store, tc.args, stderr.Bytes())
		}
		switch {
		case tc.reads == "" && len(names) > 0:
			t.Errorf("RETRY_BUDGET_STORE=%s retry %q opened %q", tc.store, tc.args, names)
		case tc.reads != "" && !slices.Contains(names, tc.reads):
			t.Errorf("RETRY_BUDGET_STORE=%s retry %q opened %q, not %s: the test cannot see a certificate read\n%s", tc.store, tc.args, names, tc.reads, stderr.Bytes())
		}
	}
}

// countingListener counts the connections it accepts.
type countingListener struct {
	net.Listener
	n *atomic.Int32
}

func (l countingListener) Accept() (net.Conn, error) {
	c, err := l.Listener.Accept()
	if err == nil {
		l.n.Add(1)
	}
	return c, err
}

// watchOpens watches dir with inotify, and returns a function that
// returns the names of the files and directories in dir opened since it
// was last called (or since the watch began). The kernel queues an event
// when the file is opened, so a process that has been waited for has
// all of its own queued.
func watchOpens(t *testing.T, dir string) func() []string {
	fd, err := unix.InotifyInit1(unix.IN_NONBLOCK | unix.IN_CLOEXEC)
	if err != nil {
		t.Skipf("inotify: %v", err)
	}
	t.Cleanup(func() { unix.Close(fd) })
	if _, err := unix.InotifyAddWatch(fd, dir, unix.IN_OPEN); err != nil {
		t.Skipf("inotify: %v", err)
	}
	return func() []string {
		var names []string
		buf := make([]byte, 64<<10)
		for {
			n, err := unix.Read(fd, buf)
			if errors.Is(err, unix.EAGAIN) {
				return names
			}
			if err != nil {
				t.Fatalf("reading inotify's events: %v", err)
			}
			for b := buf[:n]; len(b) >= unix.SizeofInotifyEvent; {
				ev := (*unix.InotifyEvent)(unsafe.Pointer(&b[0]))
				name := b[unix.SizeofInotifyEvent : unix.SizeofInotifyEvent+int(ev.Len)]
				names = append(names, string(bytes.TrimRight(name, "\x00")))
				b = b[unix.SizeofInotifyEvent+int(ev.Len):]
			}
		}
	}
}
