//go:build unix

package stdio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
)

func TestStderrFinalWritesOnlyTheLastAttempt(t *testing.T) {
	var out, errOut bytes.Buffer
	s := open(t, Config{Stdout: &out, Stderr: &errOut, StderrMode: OutputFinal})
	for _, script := range []string{"echo out 1; echo one >&2; exit 1", "echo out 2; echo two >&2; exit 1", "echo out 3; echo three >&2"} {
		a := begin(t, s)
		run(t, a, script)
		end(t, s)
		if errOut.Len() != 0 {
			t.Fatalf("output reached stderr before Finish: %q", errOut.String())
		}
	}
	if err := s.Finish(); err != nil {
		t.Fatal(err)
	}
	if errOut.String() != "three\n" {
		t.Errorf("stderr = %q, want %q", errOut.String(), "three\n")
	}
	if want := "out 1\nout 2\nout 3\n"; out.String() != want {
		t.Errorf("stdout = %q, want it streamed: %q", out.String(), want)
	}
}

func TestStderrFinalByteExactFromAProcess(t *testing.T) {
	data := payload(300000)
	in, err := os.CreateTemp(t.TempDir(), "data")
	if err != nil {
		t.Fatal(err)
	}
	in.Write(data)
	in.Seek(0, io.SeekStart)
	var dst bytes.Buffer
	s := open(t, Config{Stdin: in, Stderr: &dst, StderrMode: OutputFinal})
	for _, script := range []string{"head -c 777 >&2; exit 1", "cat >&2"} {
		run(t, begin(t, s), script)
		end(t, s)
	}
	if err := s.Finish(); err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(dst.Bytes(), data) {
		t.Errorf("stderr: %d bytes, not the last attempt's %d", dst.Len(), len(data))
	}
}

// A held stderr that cannot be kept whole is lost, whole: Finish writes
// nothing of it, says so, and still writes the held stdout, which is
// whole. The command never sees the failure.
func TestStderrFinalLostOutputIsNeverWrittenCut(t *testing.T) {
	var out, errOut bytes.Buffer
	s := open(t, Config{Stdout: &out, StdoutMode: OutputFinal, Stderr: &errOut, StderrMode: OutputFinal, TempDir: t.TempDir()})
	s.errOut.(*finalOutput).create = func(dir, pattern string) (heldFile, error) {
		f, err := createTemp(dir, pattern)
		if err != nil {
			return nil, err
		}
		return &fullFile{tempFile: f, limit: 64 << 10}, nil
	}
	a := begin(t, s)
	if err := run(t, a, "echo whole; head -c 1048576 /dev/zero >&2; exit $?"); err != nil {
		t.Errorf("the command saw the failure to hold its stderr: %v", err)
	}
	end(t, s)
	err := s.Finish()
	if !errors.Is(err, ErrOutputLost) || !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Finish = %v; want ErrOutputLost with the write's error", err)
	}
	if err == nil || !strings.HasPrefix(err.Error(), "stderr: ") {
		t.Errorf("Finish = %v; want it to name stderr", err)
	}
	if errOut.Len() != 0 {
		t.Errorf("Finish wrote %d bytes of a held stderr that was lost; want none", errOut.Len())
	}
	if out.String() != "whole\n" {
		t.Errorf("stdout = %q, want the held stdout, which is whole", out.String())
	}
}
