//go:build linux || darwin

package testscript_test

import (
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// The terminal hangs up under a running attempt: its shell is SIGKILLed
// and the terminal closed, and the kernel sends SIGHUP to the attempt's
// group, which has the foreground. That is the user leaving: no other
// attempt starts (issue 14), also when retry's own output goes to a file
// that still has its reader.
func TestTerminalHangUpIsNoRetry(t *testing.T) {
	s := startSession(t, "sh", "-c", `retry -a 3 --delay 1ms --summary-file r.json -- sh -c 'echo $RETRY_ATTEMPT >>attempts; echo $PPID >retry.pid; sleep 30' >log 2>&1`)
	s.waitFor("attempt 1", func() bool { return len(s.lines("attempts")) == 1 && len(s.lines("retry.pid")) == 1 })
	pid, err := strconv.Atoi(s.lines("retry.pid")[0])
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		// A retry that did not end would run its next attempts for 30s.
		_ = syscall.Kill(pid, syscall.SIGKILL)
	})
	if err := s.cmd.Process.Kill(); err != nil {
		t.Fatal(err)
	}
	_, _ = s.cmd.Process.Wait()
	s.pty.Close() // the terminal emulator closes the terminal of its dead shell
	for start := time.Now(); running(pid); time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 10*time.Second {
			log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
			t.Fatalf("retry still runs 10s after the hang-up; %d attempts ran; it printed:\n%s", len(s.lines("attempts")), log)
		}
	}
	log, _ := os.ReadFile(filepath.Join(s.dir, "log"))
	if n := len(s.lines("attempts")); n != 1 {
		t.Errorf("%d attempts ran; want 1: a hang-up must not cause a retry; retry printed:\n%s", n, log)
	}
	report, err := os.ReadFile(filepath.Join(s.dir, "r.json"))
	if err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{`"outcome": "cancelled"`, `"signal": "SIGHUP"`, `the terminal hung up`} {
		if !strings.Contains(string(report), want) {
			t.Errorf("the report lacks %s:\n%s", want, report)
		}
	}
}
