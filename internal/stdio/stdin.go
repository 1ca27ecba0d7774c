package stdio

import (
	"fmt"
	"io"
	"os"
)

func openInput(f *os.File, mode StdinMode, dir string) (input, error) {
	if f == nil {
		mode = StdinNull
	}
	switch mode {
	case StdinNull:
		return &nullInput{}, nil
	case StdinInherit:
		return inheritInput{f}, nil
	case StdinReplay:
		fi, err := f.Stat()
		switch {
		case err == nil && fi.Mode().IsRegular():
			return openFileInput(f)
		case err == nil && isNullDevice(fi):
			return inheritInput{f}, nil // always empty: nothing to replay
		}
		return openSpool(f, dir)
	}
	return nil, fmt.Errorf("unknown %v", mode)
}

// nullInput gives each attempt the null device.
type nullInput struct{ cur *os.File }

func (in *nullInput) begin() (f *os.File, err error) {
	in.cur, err = os.Open(os.DevNull)
	return in.cur, err
}

func (in *nullInput) end() error {
	if in.cur == nil {
		return nil
	}
	err := in.cur.Close()
	in.cur = nil
	return err
}

func (in *nullInput) close() error   { return in.end() }
func (*nullInput) replayable() error { return nil }

// inheritInput gives each attempt retry's own stdin.
type inheritInput struct{ f *os.File }

func (in inheritInput) begin() (*os.File, error) { return in.f, nil }
func (inheritInput) end() error                  { return nil }
func (inheritInput) close() error                { return nil }
func (inheritInput) replayable() error           { return nil }

// fileInput replays a regular file: before each attempt the file offset
// goes back to where retry found it. The attempt gets retry's own open
// file, not a copy, so after the last attempt the offset is where that
// attempt left it, as if the command had run once without retry
// (`{ retry -- head -n 1; cat; } <file` prints every line once).
type fileInput struct {
	f      *os.File
	offset int64
}

func openFileInput(f *os.File) (*fileInput, error) {
	off, err := f.Seek(0, io.SeekCurrent)
	if err != nil {
		return nil, err
	}
	return &fileInput{f: f, offset: off}, nil
}

func (in *fileInput) begin() (*os.File, error) {
	if _, err := in.f.Seek(in.offset, io.SeekStart); err != nil {
		return nil, err
	}
	return in.f, nil
}

func (*fileInput) end() error        { return nil }
func (*fileInput) close() error      { return nil }
func (*fileInput) replayable() error { return nil }

// isNullDevice reports whether fi describes the null device, the usual
// stdin of a job run by a scheduler or a benchmark.
func isNullDevice(fi os.FileInfo) bool {
	if fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err == nil && os.SameFile(fi, null)
}
