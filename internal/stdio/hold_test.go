//go:build unix

package stdio

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"syscall"
	"testing"
	"time"
)

// fullFile is a held file on a disk that fills up after limit bytes: a
// write that crosses the limit writes what fits and fails with ENOSPC.
type fullFile struct {
	*tempFile
	limit, n int64
}

func (f *fullFile) Write(p []byte) (int, error) {
	if f.n+int64(len(p)) <= f.limit {
		n, err := f.tempFile.Write(p)
		f.n += int64(n)
		return n, err
	}
	n, _ := f.tempFile.Write(p[:f.limit-f.n])
	f.n += int64(n)
	return n, &os.PathError{Op: "write", Path: f.Name(), Err: syscall.ENOSPC}
}

// openHeld returns Streams whose held stdout, into dst, goes to files
// that fill up after limit bytes each.
func openHeld(t *testing.T, dst *bytes.Buffer, limit int64) *Streams {
	t.Helper()
	dir := t.TempDir()
	s := open(t, Config{Stdout: dst, StdoutMode: OutputFinal, TempDir: dir})
	s.out.(*finalOutput).create = func(dir, pattern string) (heldFile, error) {
		f, err := createTemp(dir, pattern)
		if err != nil {
			return nil, err
		}
		return &fullFile{tempFile: f, limit: limit}, nil
	}
	return s
}

// run runs script in sh with a's stdin, stdout and stderr and reports its
// exit error.
func run(t *testing.T, a IO, script string) error {
	t.Helper()
	cmd := exec.Command("sh", "-c", script)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = a.Stdin, a.Stdout, a.Stderr
	var err error
	within(t, 10*time.Second, "the attempt", func() { err = cmd.Run() })
	return err
}

// A held output that cannot be kept whole is lost, and said to be: the
// command never sees the failure (it exits 0 after writing 1 MiB), and
// Finish writes nothing of it, not the part that fitted.
func TestHeldOutputThatCannotBeKeptIsLostWhole(t *testing.T) {
	var dst bytes.Buffer
	s := openHeld(t, &dst, 256<<10)
	a := begin(t, s)
	if err := run(t, a, "head -c 1048576 /dev/zero; exit $?"); err != nil {
		t.Errorf("the command saw the failure to hold its output: %v", err)
	}
	end(t, s)
	err := s.Finish()
	if !errors.Is(err, ErrOutputLost) || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Finish = %v; want ErrOutputLost with the write's error", err)
	}
	if dst.Len() != 0 {
		t.Errorf("Finish wrote %d bytes of a held output that was lost; want none", dst.Len())
	}
}

// Only the output written out counts: an attempt whose output was lost
// and that another attempt follows loses nothing that matters.
func TestHeldOutputLostByAnAttemptThatIsNotTheLast(t *testing.T) {
	var dst bytes.Buffer
	s := openHeld(t, &dst, 64<<10)
	run(t, begin(t, s), "head -c 1048576 /dev/zero; exit 1")
	end(t, s)
	run(t, begin(t, s), "echo second")
	end(t, s)
	if err := s.Finish(); err != nil {
		t.Fatal(err)
	}
	if dst.String() != "second\n" {
		t.Errorf("stdout = %q, want the last attempt's", dst.String())
	}
}

// The attempt's output goes into a pipe retry reads, not into the file:
// a process left behind that holds the pipe does not hold End up longer
// than the drain's grace, and its later output goes into its own
// attempt's file, never the next one's.
func TestHeldOutputOfAProcessLeftBehind(t *testing.T) {
	var dst bytes.Buffer
	s := open(t, Config{Stdout: &dst, StdoutMode: OutputFinal})
	run(t, begin(t, s), "echo first; (sleep 2; echo late) &")
	start := time.Now()
	end(t, s)
	if d := time.Since(start); d > DrainGrace+time.Second {
		t.Errorf("End took %v with a process left holding the pipe", d)
	}
	run(t, begin(t, s), "echo second")
	end(t, s)
	time.Sleep(2500 * time.Millisecond)
	if err := s.Finish(); err != nil {
		t.Fatal(err)
	}
	if dst.String() != "second\n" {
		t.Errorf("stdout = %q, want the last attempt's alone", dst.String())
	}
}
