//go:build unix

package proc

import (
	"bytes"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"syscall"
	"testing"
	"time"
)

// TestExecEnvAsOSExec holds execEnv to the environment os/exec would pass.
func TestExecEnvAsOSExec(t *testing.T) {
	for _, env := range [][]string{
		{},
		{"A=1", "B=2"},
		{"A=1", "B=2", "A=3"},
		{"A=1", "A=", "A=2", "B=x=y", "B=z"},
		{"NOEQUALS", "A=1", "NOEQUALS", "", "A=2"},
		{"=C:=x", "=C:=y", "=D:=z"},
		{"RETRY_ATTEMPT=1", "PATH=/bin", "RETRY_ATTEMPT=2"},
	} {
		got, ok := execEnv(env)
		want := (&exec.Cmd{Env: env}).Environ()
		if !ok || !slices.Equal(got, want) {
			t.Errorf("execEnv(%q) = %q, %v; os/exec passes %q", env, got, ok, want)
		}
	}
	if _, ok := execEnv([]string{"A=1\x00"}); ok {
		t.Error("execEnv took a NUL, which os/exec refuses")
	}
}

func TestExecRuns(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	cmd := exec.Command("/bin/sh", "-c", `echo "$A $B"; read x || echo "stdin empty"; exit 3`)
	cmd.Env = []string{"A=1", "B=2", "A=3"}
	cmd.Stdout = w
	Prepare(cmd)
	if err := Exec(cmd); err != nil {
		t.Fatal(err)
	}
	w.Close()
	if err := cmd.Process.Signal(syscall.Signal(0)); err != nil {
		t.Errorf("signal 0 to the running process: %v", err)
	}
	out, _ := io.ReadAll(r)
	var ws syscall.WaitStatus
	if _, err := syscall.Wait4(cmd.Process.Pid, &ws, 0, nil); err != nil {
		t.Fatal(err)
	}
	if got := string(out); got != "3 2\nstdin empty\n" || ws.ExitStatus() != 3 {
		t.Errorf("output %q, exit %d; want \"3 2\\nstdin empty\\n\", 3", got, ws.ExitStatus())
	}
	if pgid, _ := syscall.Getpgid(cmd.Process.Pid); pgid == syscall.Getpgrp() {
		t.Error("the process ran in retry's process group")
	}
	// Reaped already: Wait has nothing to release, and says so at once.
	done := make(chan error, 1)
	go func() { done <- cmd.Wait() }()
	select {
	case err := <-done:
		if err == nil {
			t.Error("Wait of a reaped process returned nil")
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Wait of a reaped process hangs")
	}
}

// TestExecErrorsAsStart checks that Exec fails as cmd.Start does.
func TestExecErrorsAsStart(t *testing.T) {
	dir := t.TempDir()
	noShebang := filepath.Join(dir, "script")
	if err := os.WriteFile(noShebang, []byte("echo hi\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, path := range []string{filepath.Join(dir, "missing"), noShebang, dir} {
		mine := exec.Command(path)
		mine.Env = []string{}
		theirs := exec.Command(path)
		theirs.Env = []string{}
		got, want := Exec(mine), theirs.Start()
		var gp, wp *os.PathError
		if !errors.As(got, &gp) || !errors.As(want, &wp) || gp.Op != wp.Op || gp.Path != wp.Path || !errors.Is(gp.Err, wp.Err) {
			t.Errorf("%s: Exec: %v; cmd.Start: %v", path, got, want)
		}
	}
}

// TestExecOtherStreams checks that a stream that is not a file goes
// through os/exec, which copies it.
func TestExecOtherStreams(t *testing.T) {
	var out bytes.Buffer
	cmd := exec.Command("/bin/sh", "-c", "echo copied")
	cmd.Env = []string{}
	cmd.Stdout = &out
	if err := Exec(cmd); err != nil {
		t.Fatal(err)
	}
	if err := cmd.Wait(); err != nil || out.String() != "copied\n" {
		t.Errorf("Wait: %v, output %q", err, out.String())
	}
}
