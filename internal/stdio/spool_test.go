package stdio

import (
	"bytes"
	"errors"
	"io"
	"os"
	"sync"
	"syscall"
	"testing"
	"time"
)

// fullDisk is a spool file on a disk that fills up after limit bytes: a
// write that crosses the limit writes what fits and fails with ENOSPC, as
// in a full $TMPDIR.
type fullDisk struct {
	*tempFile
	limit int64
	once  sync.Once
	full  chan struct{} // closed when a write has failed
}

func (d *fullDisk) WriteAt(p []byte, off int64) (int, error) {
	if off+int64(len(p)) <= d.limit {
		return d.tempFile.WriteAt(p, off)
	}
	n := 0
	if off < d.limit {
		n, _ = d.tempFile.WriteAt(p[:d.limit-off], off)
	}
	d.once.Do(func() { close(d.full) })
	return n, &os.PathError{Op: "write", Path: d.Name(), Err: syscall.ENOSPC}
}

// openFullDisk returns Streams whose stdin is src, spooled to a file in
// dir that fills up after limit bytes. The file keeps its name until the
// spool discards it, as on Windows, so the test sees when it goes.
func openFullDisk(t *testing.T, src *os.File, dir string, limit int64) (*Streams, *fullDisk) {
	t.Helper()
	f, err := os.CreateTemp(dir, "retry-stdin-*")
	if err != nil {
		t.Fatal(err)
	}
	disk := &fullDisk{tempFile: &tempFile{File: f, name: f.Name()}, limit: limit, full: make(chan struct{})}
	out, err := openStream(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	errOut, err := openStream(io.Discard)
	if err != nil {
		t.Fatal(err)
	}
	s := &Streams{in: newSpool(src, disk), out: out, errOut: errOut}
	t.Cleanup(func() { s.Close() })
	return s, disk
}

// wantRefused checks that another attempt cannot begin: it would get only
// part of the input.
func wantRefused(t *testing.T, s *Streams) {
	t.Helper()
	a, err := s.Begin()
	if err == nil {
		a.Stdin.SetReadDeadline(time.Now().Add(5 * time.Second))
		got, _ := io.ReadAll(a.Stdin)
		t.Fatalf("an attempt began after the spool failed (it read %d bytes); want an error", len(got))
	}
	if !errors.Is(err, syscall.ENOSPC) {
		t.Errorf("Begin = %v; want the spool's error", err)
	}
}

// wantEmpty checks that dir holds no file.
func wantEmpty(t *testing.T, dir, when string) {
	t.Helper()
	if entries, _ := os.ReadDir(dir); len(entries) != 0 {
		t.Errorf("%s the temporary directory holds %v", when, entries)
	}
}

func TestFullSpoolKeepsTheAttemptsInputWhole(t *testing.T) {
	data := payload(1<<20 + 3)
	for _, tc := range []struct {
		name    string
		limit   int64
		process bool // the attempt is cat, not a read in the test
	}{
		{"the first write fails", 0, false},
		{"a write in the middle fails", 100000, false},
		{"the last write fails", int64(len(data)) - 1, false},
		{"a process reads the input", 100000, true},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, w := producer(t)
			go func() { w.Write(data); w.Close() }()
			dir := t.TempDir()
			s, disk := openFullDisk(t, r, dir, tc.limit)

			a := begin(t, s)
			var got []byte
			if tc.process {
				cmd := command("cat")
				cmd.Stdin = a.Stdin
				within(t, 10*time.Second, "cat", func() { got, _ = cmd.Output() })
			} else {
				within(t, 10*time.Second, "reading the input", func() { got, _ = io.ReadAll(a.Stdin) })
			}
			select {
			case <-disk.full:
			default:
				t.Fatal("the spool never failed")
			}
			if !bytes.Equal(got, data) {
				t.Fatalf("the attempt read %d bytes; want the whole input's %d, byte for byte", len(got), len(data))
			}
			// The attempt had all its input: the failure to spool does
			// not change how it ends.
			if err := s.End(); err != nil {
				t.Errorf("End = %v; want nil", err)
			}
			if err := s.Finish(); err != nil {
				t.Errorf("Finish = %v; want nil", err)
			}
			wantRefused(t, s)
			if err := s.Close(); err != nil {
				t.Errorf("Close = %v", err)
			}
			wantEmpty(t, dir, "after Close")
		})
	}
}

func TestFullSpoolStopsTheNextAttemptOnlyWhenItNeedsTheReplay(t *testing.T) {
	data := payload(300000)
	r, w := producer(t)
	go func() { w.Write(data); w.Close() }()
	dir := t.TempDir()
	s, disk := openFullDisk(t, r, dir, 100000)

	// The first attempt stops reading before the spool fills up: the
	// next one gets its replay and the rest of the input.
	a := begin(t, s)
	io.ReadFull(a.Stdin, make([]byte, 1000))
	end(t, s)
	a = begin(t, s)
	var got []byte
	within(t, 10*time.Second, "reading the input", func() { got, _ = io.ReadAll(a.Stdin) })
	if !bytes.Equal(got, data) {
		t.Fatalf("attempt 2 read %d bytes; want the whole input's %d, byte for byte", len(got), len(data))
	}
	<-disk.full
	end(t, s)
	// A third attempt would get only the first 100000 bytes.
	wantRefused(t, s)
	s.Close()
	wantEmpty(t, dir, "after Close")
}

func TestFullSpoolWhileTheNextAttemptReplays(t *testing.T) {
	// The spool fills up on the read after the first attempt ended, while
	// the second attempt, begun with a whole replay, has not caught up
	// with it yet: the second attempt still reads the whole input.
	const first = 150000
	data := payload(400000)
	r, w := producer(t)
	dir := t.TempDir()
	s, disk := openFullDisk(t, r, dir, first)

	more := make(chan struct{})
	go func() { w.Write(data[:first]); <-more; w.Write(data[first:]); w.Close() }()
	a := begin(t, s)
	io.ReadFull(a.Stdin, make([]byte, first))
	// The case under test needs the pump blocked in its next read from the
	// producer when the attempt ends; on a loaded machine it may not have
	// got there yet, and would then wait for attempt 2 to catch up.
	time.Sleep(100 * time.Millisecond)
	end(t, s) // the pump waits for the producer

	a = begin(t, s)
	close(more)
	select {
	case <-disk.full:
	case <-time.After(10 * time.Second):
		t.Fatal("the spool never failed")
	}
	var got []byte
	within(t, 10*time.Second, "reading the input", func() { got, _ = io.ReadAll(a.Stdin) })
	if !bytes.Equal(got, data) {
		t.Fatalf("attempt 2 read %d bytes; want the whole input's %d, byte for byte", len(got), len(data))
	}
	end(t, s)
	wantRefused(t, s)
	s.Close()
	wantEmpty(t, dir, "after Close")
}

func TestFullSpoolIsRemovedAtOnce(t *testing.T) {
	// A full $TMPDIR gets its space back as soon as the spool fails, not
	// when the attempt ends: the attempt may still need it.
	data := payload(300000)
	r, w := producer(t)
	dir := t.TempDir()
	s, disk := openFullDisk(t, r, dir, 100000)

	more := make(chan struct{})
	go func() { w.Write(data[:200000]); <-more; w.Write(data[200000:]); w.Close() }()
	a := begin(t, s)
	got := make([]byte, 150000)
	within(t, 10*time.Second, "reading the first bytes", func() { io.ReadFull(a.Stdin, got) })
	<-disk.full
	deadline := time.Now().Add(5 * time.Second)
	for {
		entries, _ := os.ReadDir(dir)
		if len(entries) == 0 {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("while the attempt runs after the spool failed, the temporary directory holds %v", entries)
		}
		time.Sleep(10 * time.Millisecond)
	}

	close(more)
	var rest []byte
	within(t, 10*time.Second, "reading the rest", func() { rest, _ = io.ReadAll(a.Stdin) })
	if got = append(got, rest...); !bytes.Equal(got, data) {
		t.Fatalf("the attempt read %d bytes; want the whole input's %d, byte for byte", len(got), len(data))
	}
	end(t, s)
	wantRefused(t, s)
	if err := s.Close(); err != nil {
		t.Errorf("Close = %v", err)
	}
	wantEmpty(t, dir, "after Close")
}
