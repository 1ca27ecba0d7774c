//go:build unix

package testscript_test

import (
	"bytes"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"

	"github.com/rogpeppe/go-internal/testscript"
	"golang.org/x/sys/unix"
)

// started holds the processes the start command started, per script.
type started struct {
	mu    sync.Mutex
	procs map[*testscript.TestScript]map[string]*job
}

// job is one process started in the background.
type job struct {
	cmd            *exec.Cmd
	stdout, stderr bytes.Buffer
	done           chan struct{}
	status         int // as a shell reports it: 128+N for a death by signal N
}

// signalCmds returns the commands that start a process in the background,
// signal it and check how it ended: testscript's own background commands
// can send only INT and KILL and cannot tell an exit status.
//
//	start NAME COMMAND [ARG...]   start COMMAND in the background
//	signal NAME SIG               send SIG (TERM, INT, USR1, ...) to it
//	ended NAME N                  wait up to 10s for it to end; assert its
//	                              status is N (128+S for a death by signal
//	                              S); its stdout and stderr become the
//	                              command's, for stdout and stderr to check
//	waitfile FILE                 wait up to 10s for FILE to be non-empty
func signalCmds() map[string]func(*testscript.TestScript, bool, []string) {
	s := &started{procs: map[*testscript.TestScript]map[string]*job{}}
	return map[string]func(*testscript.TestScript, bool, []string){
		"start":    s.start,
		"signal":   s.signal,
		"ended":    s.ended,
		"waitfile": waitfile,
	}
}

func (s *started) start(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: start NAME COMMAND [ARG...]")
	}
	path, err := exec.LookPath(args[1])
	if err != nil {
		ts.Fatalf("start: %v", err)
	}
	j := &job{cmd: exec.Command(path, args[2:]...), done: make(chan struct{})}
	j.cmd.Dir = ts.Getenv("WORK")
	j.cmd.Env = environ(ts)
	j.cmd.Stdout, j.cmd.Stderr = &j.stdout, &j.stderr
	if err := j.cmd.Start(); err != nil {
		ts.Fatalf("start: %v", err)
	}
	go func() {
		defer close(j.done)
		_ = j.cmd.Wait()
		ws := j.cmd.ProcessState.Sys().(syscall.WaitStatus)
		j.status = ws.ExitStatus()
		if ws.Signaled() {
			j.status = 128 + int(ws.Signal())
		}
	}()
	ts.Defer(func() { _ = j.cmd.Process.Kill() })
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.procs[ts] == nil {
		s.procs[ts] = map[string]*job{}
	}
	s.procs[ts][args[0]] = j
}

// environ returns the script's environment, for commands run outside
// ts.Exec.
func environ(ts *testscript.TestScript) []string {
	var env []string
	for _, name := range []string{"PATH", "HOME", "TMPDIR", "WORK", "RETRY_DEPTH", "RETRY_DEADLINE", "RETRY_ATTEMPT", "RETRY_MAX_ATTEMPTS", "RETRY_IDEMPOTENCY_KEY", "GORACE"} {
		env = append(env, name+"="+ts.Getenv(name))
	}
	return env
}

func (s *started) job(ts *testscript.TestScript, name string) *job {
	s.mu.Lock()
	defer s.mu.Unlock()
	j := s.procs[ts][name]
	if j == nil {
		ts.Fatalf("no process named %s was started", name)
	}
	return j
}

func (s *started) signal(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: signal NAME SIG")
	}
	sig := unix.SignalNum("SIG" + args[1])
	if sig == 0 {
		ts.Fatalf("signal: unknown signal %s", args[1])
	}
	ts.Check(s.job(ts, args[0]).cmd.Process.Signal(sig))
}

func (s *started) ended(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: ended NAME N")
	}
	want, err := strconv.Atoi(args[1])
	ts.Check(err)
	j := s.job(ts, args[0])
	select {
	case <-j.done:
	case <-time.After(10 * time.Second):
		ts.Fatalf("%s has not ended after 10s", args[0])
	}
	ts.Stdout().Write(j.stdout.Bytes())
	ts.Stderr().Write(j.stderr.Bytes())
	if j.status != want {
		ts.Fatalf("%s ended with status %d; want %d", args[0], j.status, want)
	}
}

func waitfile(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: waitfile FILE")
	}
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(5 * time.Millisecond) {
		if fi, err := os.Stat(ts.MkAbs(args[0])); err == nil && fi.Size() > 0 {
			return
		}
	}
	ts.Fatalf("%s is still missing or empty after 10s", args[0])
}
