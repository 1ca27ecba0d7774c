//go:build unix

package testscript_test

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// A process the attempt started in the background that holds its output
// never keeps retry waiting until it closes that output, on any path the
// output takes (read by retry for the hints, one stream through a pipe,
// held by --stdout final, or left to the command) and however the attempt
// ends:
//
//   - cancelled by INT while a process of its group ignores INT (as a
//     background job of a shell without job control does): retry waits
//     --kill-after for the group, then kills it, and ends;
//   - cancelled while the process has left the group (setsid): retry
//     ends after the bounded drain, and leaves it alone;
//   - ended by an exit of its first process: retry ends after the bounded
//     drain, and leaves the process alone.
func TestPipeHoldersNeverHoldRetry(t *testing.T) {
	path, err := exec.LookPath("retry")
	if err != nil {
		t.Fatal(err)
	}
	// bg starts the background process, which writes its pid to the file
	// bg once it runs sleep, and holds the attempt's stdout and stderr.
	const bg = `sh -c 'echo $$ >bg; exec sleep 30' & while [ ! -s bg ]; do sleep 0.01; done; `
	scenarios := []struct {
		name    string
		command string
		cancel  bool
		status  int           // as a shell reports it
		within  time.Duration // from the INT, or from the start
		atLeast time.Duration // from the INT
		stays   bool          // the background process outlives retry
	}{
		{"cancelled/in-group", bg + `echo $$ >ready; wait`, true, 130, 6 * time.Second, 500 * time.Millisecond, false},
		{"cancelled/left-group", "setsid " + bg + `echo $$ >ready; wait`, true, 130, 3 * time.Second, 0, true},
		{"exited", bg + `exit 3`, false, 3, 4 * time.Second, 0, true},
	}
	outputs := []struct {
		name  string
		flags []string
		// joined: both streams to one pipe (2>&1 | cat); else stdout
		// to a pipe and stderr to a file.
		joined bool
	}{
		{"hint-reads-stderr", nil, false},
		{"one-stream", nil, true},
		{"stdout-final", []string{"--stdout", "final"}, false},
		{"untapped", []string{"--no-hints"}, true},
	}
	for _, sc := range scenarios {
		for _, out := range outputs {
			t.Run(sc.name+"/"+out.name, func(t *testing.T) {
				t.Parallel()
				if strings.HasPrefix(sc.command, "setsid ") {
					if _, err := exec.LookPath("setsid"); err != nil {
						t.Skip("setsid(1) is not on PATH")
					}
				}
				args := append([]string{"-a", "1", "--kill-after", "1s"}, out.flags...)
				args = append(args, "--", "sh", "-c", sc.command)
				pipeHolder(t, path, args, out.joined, sc.cancel, sc.status, sc.within, sc.atLeast, sc.stays)
			})
		}
	}
}

// pipeHolder runs retry with args in a fresh directory, its stdout a
// pipe (and its stderr too when joined, else a file), cancels it with INT
// once the file ready is there when cancel is set, and checks it ended
// with status between atLeast and within (from the INT, or from the start)
// and that the background process, whose pid is in the file bg, still
// runs afterwards if and only if stays.
func pipeHolder(t *testing.T, path string, args []string, joined, cancel bool, status int, within, atLeast time.Duration, stays bool) {
	dir := t.TempDir()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	go func() { _, _ = io.Copy(io.Discard, r) }() // a reader that keeps up, as cat does
	errOut := w
	if !joined {
		if errOut, err = os.Create(filepath.Join(dir, "stderr")); err != nil {
			t.Fatal(err)
		}
		defer errOut.Close()
	}
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GORACE="+noExitSleep())
	cmd.Stdout, cmd.Stderr = w, errOut // files: os/exec waits for none of their holders
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	t.Cleanup(func() { _ = cmd.Process.Kill() })
	ended := make(chan syscall.WaitStatus, 1)
	go func() {
		ps, _ := cmd.Process.Wait()
		if ps != nil {
			ended <- ps.Sys().(syscall.WaitStatus)
		}
		close(ended)
	}()

	from := time.Now()
	bgPid := readPid(t, filepath.Join(dir, "bg"))
	t.Cleanup(func() { _ = syscall.Kill(bgPid, syscall.SIGKILL) })
	if cancel {
		readPid(t, filepath.Join(dir, "ready"))
		from = time.Now()
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
	}
	var ws syscall.WaitStatus
	select {
	case ws = <-ended:
	case <-time.After(15 * time.Second):
		t.Fatalf("retry has not ended 15s on, while its attempt's background process holds its output")
	}
	took := time.Since(from)
	got := ws.ExitStatus()
	if ws.Signaled() {
		got = 128 + int(ws.Signal())
	}
	if got != status {
		t.Errorf("retry ended with status %d, want %d", got, status)
	}
	if took > within || took < atLeast {
		t.Errorf("retry ended %v on, want between %v and %v", took.Round(time.Millisecond), atLeast, within)
	}
	// A process of the group retry killed may take a moment to go.
	for deadline := time.Now().Add(time.Second); running(bgPid) != stays && time.Now().Before(deadline); {
		time.Sleep(10 * time.Millisecond)
	}
	if running(bgPid) != stays {
		if stays {
			t.Errorf("the background process %d has ended: retry stopped what the attempt left running", bgPid)
		} else {
			t.Errorf("the background process %d still runs a second after retry ended", bgPid)
		}
	}
}

// readPid waits up to 10s for file to hold a pid and returns it.
func readPid(t *testing.T, file string) int {
	t.Helper()
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(file); err == nil && strings.HasSuffix(string(b), "\n") {
			pid, err := strconv.Atoi(strings.TrimSpace(string(b)))
			if err != nil {
				t.Fatalf("%s: %v", file, err)
			}
			return pid
		}
	}
	t.Fatalf("%s is still missing after 10s", file)
	return 0
}
