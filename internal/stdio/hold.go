package stdio

import (
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"sync"
)

// holdBuffer is the size of the reads that write held output out, and of
// the pipe an attempt writes held output into: large, so that holding
// costs few system calls.
const holdBuffer = 1 << 20

// ErrOutputLost is why held output is not written out: retry could not
// keep all of it (its temporary file could not be written: a full
// TMPDIR), and writes nothing rather than part of it.
var ErrOutputLost = errors.New("the output was lost")

// StreamError is retry's own failure to handle one of the attempts'
// streams; it reads "stdout: " and the cause.
type StreamError struct {
	// Stream is "stdin", "stdout" or "stderr".
	Stream string
	Err    error
}

// Error names the stream, then the cause.
func (e *StreamError) Error() string { return e.Stream + ": " + e.Err.Error() }

// Unwrap returns the cause.
func (e *StreamError) Unwrap() error { return e.Err }

// heldFile is where a holder keeps an attempt's output: a tempFile, or in
// tests a file on a disk that fills up.
type heldFile interface {
	io.Writer
	io.ReaderAt
	discard() error
}

// holder keeps one attempt's output on one stream (stdout for --stdout
// final; stderr works the same way) in a private temporary file of its
// own, so that a straggling grandchild of one attempt cannot write into
// the next one's. retry itself writes that file: the attempt writes into
// a pipe that retry reads, so a write that fails is retry's to see, never
// the command's. After a failed write the holder goes on reading what the
// attempt writes, and drops it: the command runs on as if its output had
// been taken, and its result stands; only the output is lost.
type holder struct {
	file   heldFile
	stream stream     // the pipe the attempt writes into
	relays sync.Mutex // see handOver
	err    error      // the first write that failed; read after stream.wait
	ended  bool
}

// hold creates a holder in dir and returns it with the writer the attempt
// gets as its stream: the pipe's writing end, a file, where the platform
// lets retry carry the pipe itself (Unix); else a writer that os/exec
// carries. create makes the file; nil makes a private temporary file.
func hold(dir, pattern string, create func(dir, pattern string) (heldFile, error)) (*holder, io.Writer, error) {
	if create == nil {
		create = func(dir, pattern string) (heldFile, error) { return createTemp(dir, pattern) }
	}
	f, err := create(dir, pattern)
	if err != nil {
		return nil, nil, err
	}
	h := &holder{file: f}
	var w io.Writer = (*holdWriter)(h)
	if h.stream, err = watchStream(&w, io.Discard, &h.relays); err != nil {
		_ = f.discard()
		return nil, nil, err
	}
	if g, ok := h.stream.(interface{ grow(int) }); ok {
		g.grow(holdBuffer)
	}
	h.stream.carry()
	return h, w, nil
}

// end tells that the attempt's process has ended: what is still in the
// pipe is read (DrainGrace for a process left behind that holds it), and
// from then on the held output is complete.
func (h *holder) end() {
	if h.ended {
		return
	}
	h.ended = true
	h.stream.started() // retry's own copy of the writing end goes
	h.stream.exited()
	h.stream.wait()
}

// writeTo writes the held output to dst, or nothing and an error wrapping
// ErrOutputLost when some of it could not be kept. It reads at explicit
// offsets, leaving the file offset the attempt's processes share alone.
func (h *holder) writeTo(dst io.Writer) error {
	h.end()
	if h.err != nil {
		return fmt.Errorf("%w, nothing of it was written: it could not be held: %w", ErrOutputLost, h.err)
	}
	var off int64
	if f, d := h.relayFile(), asFile(dst); f != nil && d != nil {
		if fi, err := f.Stat(); err == nil {
			sent, ok, err := sendFile(d, f, fi.Size())
			if ok && err != nil {
				return err
			}
			off = sent
		}
	}
	_, err := io.CopyBuffer(dst, io.NewSectionReader(h.file, off, math.MaxInt64-off), make([]byte, holdBuffer))
	return err
}

// discard ends the holder and removes its file.
func (h *holder) discard() error {
	h.end()
	return h.file.discard()
}

// relayFile returns the file a relay for a process left behind writes to
// (see handOver), or nil.
func (h *holder) relayFile() *os.File {
	if t, ok := h.file.(*tempFile); ok {
		return t.File
	}
	return nil
}

// asFile returns w as a file, or nil.
func asFile(w io.Writer) *os.File {
	f, _ := w.(*os.File)
	return f
}

// holdWriter is the holder as the pipe's destination: its writes never
// fail, so the pipe is always drained.
type holdWriter holder

func (w *holdWriter) Write(p []byte) (int, error) {
	if w.err == nil {
		if _, err := w.file.Write(p); err != nil {
			w.err = err
		}
	}
	return len(p), nil
}
