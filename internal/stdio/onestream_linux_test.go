package stdio

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"syscall"
	"testing"

	"github.com/creack/pty"
)

// dup returns a second descriptor of f's open file description, as a
// shell's 2>&1 makes one.
func dup(t *testing.T, f *os.File) *os.File {
	t.Helper()
	fd, err := syscall.Dup(int(f.Fd()))
	if err != nil {
		t.Fatal(err)
	}
	d := os.NewFile(uintptr(fd), f.Name())
	t.Cleanup(func() { d.Close() })
	return d
}

func create(t *testing.T, path string, flag int) *os.File {
	t.Helper()
	f, err := os.OpenFile(path, flag|os.O_WRONLY|os.O_CREATE, 0o600)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { f.Close() })
	return f
}

// oneStreamCases are retry's stdout and stderr as shells and CI runners
// hand them over: dup'd descriptors are one stream, anything else two.
// noKcmp is what OneStream says where the kernel cannot compare open
// file descriptions: a shared pipe is still one stream, a file two.
func oneStreamCases(t *testing.T) []oneStreamCase {
	dir := t.TempDir()
	log := create(t, filepath.Join(dir, "log"), os.O_TRUNC)
	again := create(t, filepath.Join(dir, "log"), 0)
	appended := create(t, filepath.Join(dir, "appended"), os.O_APPEND)
	appendedAgain := create(t, filepath.Join(dir, "appended"), os.O_APPEND)
	other := create(t, filepath.Join(dir, "other"), 0)
	_, pw := producer(t)
	_, pw2 := producer(t)
	// The same pipe opened again by its name: the same pipe, another
	// open file description.
	reopened, err := os.OpenFile("/dev/fd/"+strconv.Itoa(int(pw.Fd())), os.O_WRONLY, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { reopened.Close() })
	sa, sb, err := socketPair()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { sa.Close(); sb.Close() })
	null := create(t, os.DevNull, 0)
	term, tty, err := pty.Open()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { term.Close(); tty.Close() })
	var buf bytes.Buffer
	return []oneStreamCase{
		{">log 2>&1", log, dup(t, log), true, false},
		{">>log 2>&1", appended, dup(t, appended), true, false},
		{"the same file given twice", log, log, true, false},
		{"2>&1 | cat", pw, dup(t, pw), true, true},
		{"2>&1 into a socket", sa, dup(t, sa), true, false},
		{">log 2>log: two opens of one file", log, again, false, false},
		{">>log 2>>log", appended, appendedAgain, false, false},
		{">log 2>other", log, other, false, false},
		{"two pipes", pw, pw2, false, false},
		{"one pipe opened twice", pw, reopened, false, true},
		{"a pipe and a file", pw, log, false, false},
		{"two ends of a socket pair", sa, sb, false, false},
		{">/dev/null 2>&1", null, dup(t, null), false, false},
		{"a terminal", tty, dup(t, tty), false, false},
		{"a terminal given twice", tty, tty, false, false},
		{"writers that are not files", &buf, &buf, false, false},
		{"a file and a writer", log, &buf, false, false},
	}
}

type oneStreamCase struct {
	name         string
	out, err     io.Writer
	want, noKcmp bool
}

// Where kcmp(2) cannot answer, a shared pipe is still one stream, and
// files are two.
func TestOneStreamWithoutKcmp(t *testing.T) {
	noKcmp := func(a, b *os.File) (bool, bool) { return false, false }
	for _, tc := range oneStreamCases(t) {
		if got := oneStream(tc.out, tc.err, noKcmp); got != tc.noKcmp {
			t.Errorf("%s: OneStream = %v, want %v", tc.name, got, tc.noKcmp)
		}
	}
}

func TestOneStream(t *testing.T) {
	f := create(t, filepath.Join(t.TempDir(), "probe"), 0)
	if _, known := sameDescription(f, f); !known {
		t.Skip("kcmp(2) is refused here (a seccomp filter, or a kernel without it): TestOneStreamWithoutKcmp covers what retry does then")
	}
	for _, tc := range oneStreamCases(t) {
		if got := OneStream(tc.out, tc.err); got != tc.want {
			t.Errorf("%s: OneStream = %v, want %v", tc.name, got, tc.want)
		}
	}
}

func socketPair() (a, b *os.File, err error) {
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err != nil {
		return nil, nil, err
	}
	return os.NewFile(uintptr(fds[0]), "socket"), os.NewFile(uintptr(fds[1]), "socket"), nil
}
