//go:build linux || darwin

package testscript_test

import (
	"bytes"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/creack/pty"
)

// session is a command running on a pseudo-terminal of its own: retry as
// if typed at an interactive shell (the test plays the shell), or a shell.
type session struct {
	t    *testing.T
	dir  string
	cmd  *exec.Cmd
	pty  *os.File
	mu   sync.Mutex
	seen bytes.Buffer // everything the terminal showed
}

func startSession(t *testing.T, name string, args ...string) *session {
	t.Helper()
	path, err := exec.LookPath(name)
	if err != nil {
		t.Fatal(err)
	}
	s := &session{t: t, dir: t.TempDir(), cmd: exec.Command(path, args...)}
	s.cmd.Dir = s.dir
	s.cmd.Env = append(os.Environ(), "GORACE="+noExitSleep())
	// pty.Start makes retry a session leader with the terminal as its
	// controlling terminal and its group in the foreground.
	if s.pty, err = pty.Start(s.cmd); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = s.cmd.Process.Kill()
		s.pty.Close()
	})
	go func() {
		buf := make([]byte, 4096)
		for {
			n, err := s.pty.Read(buf)
			s.mu.Lock()
			s.seen.Write(buf[:n])
			s.mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	return s
}

// waitFor waits until cond holds, failing the test after 10 seconds.
func (s *session) waitFor(what string, cond func() bool) {
	s.t.Helper()
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(5 * time.Millisecond) {
		if cond() {
			return
		}
	}
	s.t.Fatalf("timed out waiting for %s; the terminal showed:\n%s", what, s.shown())
}

func (s *session) shown() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.seen.String()
}

// lines returns the lines of the file name in the session's directory.
func (s *session) lines(name string) []string {
	b, _ := os.ReadFile(filepath.Join(s.dir, name))
	return strings.Fields(string(b))
}

// typeKeys types keys at the terminal, after a pause that lets the
// attempt reach its read.
func (s *session) typeKeys(keys string) {
	time.Sleep(100 * time.Millisecond)
	if _, err := io.WriteString(s.pty, keys); err != nil {
		s.t.Fatal(err)
	}
}

// wait waits for retry to stop or end, as a shell does (WUNTRACED).
func (s *session) wait() syscall.WaitStatus {
	s.t.Helper()
	type result struct {
		ws  syscall.WaitStatus
		err error
	}
	ch := make(chan result, 1)
	go func() {
		var ws syscall.WaitStatus
		_, err := syscall.Wait4(s.cmd.Process.Pid, &ws, syscall.WUNTRACED, nil)
		ch <- result{ws, err}
	}()
	select {
	case r := <-ch:
		if r.err != nil {
			s.t.Fatal(r.err)
		}
		return r.ws
	case <-time.After(10 * time.Second):
		s.t.Fatalf("retry neither stopped nor ended within 10s; the terminal showed:\n%s", s.shown())
	}
	return 0
}

// An attempt reads from the terminal, which it holds while it runs;
// Ctrl-C then reaches the attempt, and its death by SIGINT is the user
// cancelling: no further attempt, and retry dies by SIGINT too.
func TestTerminalAttemptReadsAndCtrlCCancels(t *testing.T) {
	s := startSession(t, "retry", "-a", "3", "--delay", "1ms", "--",
		"sh", "-c", `echo $RETRY_ATTEMPT >>attempts; IFS= read -r line; echo "got [$line]"; exit 1`)
	s.waitFor("attempt 1", func() bool { return len(s.lines("attempts")) == 1 })
	s.typeKeys("hello\n")
	s.waitFor("attempt 1 to read the line", func() bool { return strings.Contains(s.shown(), "got [hello]") })
	s.waitFor("attempt 2", func() bool { return len(s.lines("attempts")) == 2 })
	s.typeKeys("\x03")
	ws := s.wait()
	if !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("retry ended with %#x; want a death by SIGINT; the terminal showed:\n%s", ws, s.shown())
	}
	if n := len(s.lines("attempts")); n != 2 {
		t.Errorf("%d attempts ran; want 2: Ctrl-C must not cause a retry", n)
	}
}

// Between attempts retry has the terminal again: Ctrl-C during a wait
// reaches retry, which ends at once by SIGINT.
func TestTerminalCtrlCDuringAWait(t *testing.T) {
	s := startSession(t, "retry", "-a", "3", "--delay", "30s", "--jitter", "none", "--",
		"sh", "-c", `echo $RETRY_ATTEMPT >>attempts; exit 1`)
	s.waitFor("the wait", func() bool { return strings.Contains(s.shown(), "next attempt in") })
	start := time.Now()
	s.typeKeys("\x03")
	ws := s.wait()
	if !ws.Signaled() || ws.Signal() != syscall.SIGINT {
		t.Errorf("retry ended with %#x; want a death by SIGINT; the terminal showed:\n%s", ws, s.shown())
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("retry took %v to end after Ctrl-C", d)
	}
}

// Ctrl-Z stops the attempt, and retry with it, so that a job-control
// shell sees its job stopped and takes the terminal back; fg continues
// both, and the attempt goes on reading the terminal. The shell is a real
// one, with job control on (set -m): retry stops its own job, which only
// works in a group whose parent is in the same session.
func TestTerminalCtrlZAndFg(t *testing.T) {
	s := startSession(t, "sh", "-c", `set -m
retry -a 1 -- sh -c 'echo $$ $PPID >pids; IFS= read -r line; echo "got [$line]"'
echo "stopped: $?"
read resume
fg
echo "fg ended: $?"`)
	s.waitFor("the attempt", func() bool { return len(s.lines("pids")) == 2 })
	s.typeKeys("\x1a")
	s.waitFor("the shell to see the job stopped", func() bool { return strings.Contains(s.shown(), "stopped: 148") })
	for i, who := range []string{"the attempt", "retry"} {
		if pid, err := strconv.Atoi(s.lines("pids")[i]); err == nil && !processStopped(pid) {
			t.Errorf("%s (%d) is not stopped; the terminal showed:\n%s", who, pid, s.shown())
		}
	}
	s.typeKeys("\n") // the shell runs fg
	s.typeKeys("world\n")
	s.waitFor("fg to end", func() bool { return strings.Contains(s.shown(), "fg ended:") })
	if !strings.Contains(s.shown(), "got [world]") || !strings.Contains(s.shown(), "fg ended: 0") {
		t.Errorf("after fg the attempt did not read the terminal and succeed; it showed:\n%s", s.shown())
	}
}

// processStopped reports whether pid is stopped; true where that cannot
// be read (not Linux).
func processStopped(pid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return true
	}
	i := bytes.LastIndexByte(stat, ')')
	return i >= 0 && i+2 < len(stat) && stat[i+2] == 'T'
}

// An attempt that has the terminal and is ended at its timeout by
// --stop-signal INT dies from a SIGINT that retry sent: that is the
// timeout, not the user pressing Ctrl-C, so it is retried and retry ends
// with 124 rather than dying by SIGINT.
func TestTerminalStopSignalINTAtTimeout(t *testing.T) {
	s := startSession(t, "retry", "-a", "2", "--delay", "1ms", "-t", "200ms", "--stop-signal", "INT", "--",
		"sh", "-c", `echo $RETRY_ATTEMPT >>attempts; sleep 5`)
	ws := s.wait()
	if !ws.Exited() || ws.ExitStatus() != 124 {
		t.Errorf("retry ended with %#x; want exit status 124; the terminal showed:\n%s", ws, s.shown())
	}
	if n := len(s.lines("attempts")); n != 2 {
		t.Errorf("%d attempts ran; want 2: a timeout is retried; the terminal showed:\n%s", n, s.shown())
	}
}
