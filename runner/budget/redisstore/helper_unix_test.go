//go:build unix

package redisstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/b0a38808/retry/internal/redistest"
	"github.com/b0a38808/retry/runner/budget"
	"github.com/b0a38808/retry/runner/budget/redisstore/tlsrelay"
)

// noHelper is why the TLS helper could not be built for the tests.
var noHelper error

// installHelper builds cmd/retry-tls into a temporary directory put first
// on PATH, where the store finds it, and returns its removal.
func installHelper() func() {
	dir, err := os.MkdirTemp("", "retry-tls-")
	if err != nil {
		noHelper = err
		return func() {}
	}
	cleanup := func() { os.RemoveAll(dir) }
	if _, err := exec.LookPath("go"); err != nil {
		noHelper = fmt.Errorf("go is not on PATH to build %s: %v", HelperName, err)
		return cleanup
	}
	out, err := exec.Command("go", "build", "-o", filepath.Join(dir, HelperName), "github.com/b0a38808/retry/cmd/retry-tls").CombinedOutput()
	if err != nil {
		noHelper = fmt.Errorf("go build %s: %v: %s", HelperName, err, out)
		return cleanup
	}
	os.Setenv("PATH", dir+string(os.PathListSeparator)+os.Getenv("PATH"))
	return cleanup
}

// needHelper skips t when the TLS helper could not be built.
func needHelper(t *testing.T) {
	t.Helper()
	if noHelper != nil {
		t.Skip(noHelper)
	}
}

// helperPid returns the pid of the TLS helper of s's one connection.
func helperPid(t testing.TB, s *Store) int {
	for _, c := range s.cl.conns {
		if hc, ok := c.c.(*helperConn); ok {
			return hc.h.cmd.Process.Pid
		}
	}
	t.Fatal("no connection through the TLS helper")
	return 0
}

// alive reports whether pid is a live process, not a zombie.
func alive(pid int) bool {
	if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		i := strings.LastIndexByte(string(stat), ')')
		return i < 0 || i+2 >= len(stat) || stat[i+2] != 'Z'
	}
	return syscall.Kill(pid, 0) == nil
}

// waitGone fails t unless pid ends within 5s.
func waitGone(t *testing.T, pid int, what string) {
	t.Helper()
	for deadline := time.Now().Add(5 * time.Second); alive(pid); time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			syscall.Kill(pid, syscall.SIGKILL)
			t.Fatalf("the TLS helper %d still runs 5s after %s", pid, what)
		}
	}
}

// helperChild is the test binary as a process that holds a TLS
// connection to url, prints its helper's pid, and waits to be killed.
func helperChild(url string) {
	a, _ := ParseURL(url)
	s, err := Open(a, "child", budget.DefaultPolicy(), Options{})
	if err == nil {
		_, err = s.RecordFirst(context.Background(), time.Time{})
	}
	if err != nil {
		os.Stdout.WriteString(err.Error() + "\n")
		os.Exit(1)
	}
	fmt.Println(helperPid(nil, s))
	time.Sleep(time.Minute)
	os.Exit(0)
}

// TestHelperEnds: the TLS helper ends when its socket ends, and Close
// reaps it.
func TestHelperEnds(t *testing.T) {
	srv := tlsServer(t, redistest.Config{})
	s := open(t, srv.URL()+"?cacert="+srv.CAFile, "ends", Options{})
	if _, err := s.RecordFirst(context.Background(), time.Time{}); err != nil {
		t.Fatal(err)
	}
	var hc *helperConn
	for _, c := range s.cl.conns {
		hc = c.c.(*helperConn)
	}
	hc.UnixConn.Close()
	select {
	case <-hc.h.ended:
	case <-time.After(5 * time.Second):
		t.Fatal("the TLS helper still runs 5s after its socket closed")
	}
	pid := hc.h.cmd.Process.Pid
	s.Close()
	if err := syscall.Kill(pid, 0); !errors.Is(err, syscall.ESRCH) {
		t.Fatalf("the TLS helper %d after Close: %v, want it reaped (ESRCH)", pid, err)
	}
}

// TestHelperEndsWithRetry: when the process that started the TLS helper
// is killed by SIGKILL, the helper ends too.
func TestHelperEndsWithRetry(t *testing.T) {
	srv := tlsServer(t, redistest.Config{})
	cmd := exec.Command(os.Args[0], "-test.run=^$")
	cmd.Env = append(os.Environ(), "REDISSTORE_TEST_HELPER="+srv.URL()+"?cacert="+srv.CAFile)
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	line, err := bufio.NewReader(out).ReadString('\n')
	pid, perr := strconv.Atoi(strings.TrimSpace(line))
	if err != nil || perr != nil {
		cmd.Process.Kill()
		cmd.Wait()
		t.Fatalf("the child: %q, %v", line, err)
	}
	if !alive(pid) {
		t.Fatalf("the TLS helper %d is not running", pid)
	}
	cmd.Process.Kill()
	cmd.Wait()
	waitGone(t, pid, "its parent was killed")
}

// TestHelperDies: a TLS helper that dies between two calls makes the
// call a store failure at once, not a hang, and the next call connects
// again.
func TestHelperDies(t *testing.T) {
	srv := tlsServer(t, redistest.Config{})
	s := open(t, srv.URL()+"?cacert="+srv.CAFile, "dies", Options{Timeout: 5 * time.Second})
	ctx := context.Background()
	if _, err := s.RecordFirst(ctx, time.Time{}); err != nil {
		t.Fatal(err)
	}
	pid := helperPid(t, s)
	syscall.Kill(pid, syscall.SIGKILL)
	waitGone(t, pid, "SIGKILL")
	start := time.Now()
	_, err := s.RecordFirst(ctx, time.Time{})
	checkStoreError(t, "a dead helper", err, "")
	if took := time.Since(start); took > 3*time.Second {
		t.Fatalf("a dead helper took %v to fail", took)
	}
	if _, err := s.RecordFirst(ctx, time.Time{}); err != nil {
		t.Fatalf("after the helper died: %v", err)
	}
	if alive(pid) {
		t.Fatalf("the dead helper %d was not reaped", pid)
	}
}

// TestHelperReady: the word the store waits for is the one the helper
// writes.
func TestHelperReady(t *testing.T) {
	if helperReady != tlsrelay.Ready {
		t.Fatalf("the store waits for %q, the helper writes %q", helperReady, tlsrelay.Ready)
	}
}
