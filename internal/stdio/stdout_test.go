package stdio

import (
	"bytes"
	"io"
	"os"
	"runtime"
	"testing"
)

func TestStdoutFinalWritesOnlyTheLastAttempt(t *testing.T) {
	for _, tc := range []struct {
		name   string
		writes []string
		run    func(t *testing.T, s *Streams, writes []string)
		want   string
	}{
		{
			name:   "the runner says the attempt that ended is the last",
			writes: []string{"one\n", "two\n", "three\n"},
			want:   "three\n",
		},
		{
			name:   "cancelled during the wait after an attempt",
			writes: []string{"one\n", "two\n"},
			want:   "two\n",
		},
		{
			name:   "an attempt that printed nothing",
			writes: []string{"one\n", ""},
			want:   "",
		},
	} {
		t.Run(tc.name, func(t *testing.T) {
			var dst bytes.Buffer
			s := open(t, Config{Stdout: &dst, StdoutMode: OutputFinal})
			for _, w := range tc.writes {
				a := begin(t, s)
				io.WriteString(a.Stdout, w)
				end(t, s)
				if dst.Len() != 0 {
					t.Fatalf("output reached stdout before Finish: %q", dst.String())
				}
			}
			if err := s.Finish(); err != nil {
				t.Fatal(err)
			}
			if dst.String() != tc.want {
				t.Errorf("stdout = %q, want %q", dst.String(), tc.want)
			}
		})
	}
}

func TestStdoutFinalByteExactFromAProcess(t *testing.T) {
	data := payload(200000)
	in, err := os.CreateTemp(t.TempDir(), "data")
	if err != nil {
		t.Fatal(err)
	}
	in.Write(data)
	in.Seek(0, io.SeekStart)
	var dst bytes.Buffer
	s := open(t, Config{Stdin: in, Stdout: &dst, StdoutMode: OutputFinal})
	for _, steps := range [][]string{{"head", "777", "exit", "1"}, {"cat"}} {
		a := begin(t, s)
		// On Windows, os/exec copies the output to the spool through a
		// tee instead (see tap_windows.go).
		if _, ok := a.Stdout.(*os.File); !ok && runtime.GOOS != "windows" {
			t.Fatalf("stdout is a %T, want a file", a.Stdout)
		}
		cmd := command(steps...)
		cmd.Stdin, cmd.Stdout = a.Stdin, a.Stdout
		cmd.Run()
		end(t, s)
	}
	s.Finish()
	if !bytes.Equal(dst.Bytes(), data) {
		t.Errorf("stdout: %d bytes, not the last attempt's %d", dst.Len(), len(data))
	}
}

func TestStdoutFinalFinishEndsARunningAttempt(t *testing.T) {
	var dst bytes.Buffer
	s := open(t, Config{Stdout: &dst, StdoutMode: OutputFinal})
	a := begin(t, s)
	io.WriteString(a.Stdout, "partial")
	if err := s.Finish(); err != nil {
		t.Fatal(err)
	}
	if dst.String() != "partial" {
		t.Errorf("stdout = %q, want %q", dst.String(), "partial")
	}
}

func TestStdoutStreamPassesThrough(t *testing.T) {
	var dst bytes.Buffer
	s := open(t, Config{Stdout: &dst})
	a := begin(t, s)
	if a.Stdout != io.Writer(&dst) {
		t.Fatalf("stdout is %T, want the writer itself", a.Stdout)
	}
	s.End()

	s = open(t, Config{})
	a = begin(t, s)
	if _, ok := a.Stdout.(*os.File); !ok {
		t.Errorf("a nil Stdout gave %T, want the null device as a file", a.Stdout)
	}
	s.End()
}
