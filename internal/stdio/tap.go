package stdio

import (
	"io"
	"sync"
	"time"
)

// DrainGrace bounds how long an attempt's output pipes are drained after
// its process exits, so that a grandchild holding them open cannot make
// retry hang.
const DrainGrace = 500 * time.Millisecond

// teeBuffer is the size of the reads from an attempt's tapped pipe: the
// pipe's capacity and then some, so a busy stream costs few system calls.
const teeBuffer = 128 << 10

// Tap carries some of an attempt's streams to their destinations itself
// and shows every byte a destination took to a tap writer (the matcher).
// Tell it when the attempt's process has started, or could not, and when
// it has been reaped; Wait returns once the tapped streams are done. Its
// zero value taps nothing; it must not be copied once used.
type Tap struct {
	streams []stream
	relays  sync.Mutex // the attempt's streams start relays one at a time
}

// stream is one tapped stream of an attempt on its way to its
// destination.
type stream interface {
	// carry: start copying now, before the process starts; retry keeps
	// its copy of the writing end until started. For a stream that
	// retry holds (holder), whose end comes only after the process's.
	carry()
	// started: the attempt's process runs, and has its copy of the
	// writing end: retry's goes.
	started()
	// exited: the process has been reaped; what is left to read is
	// bounded from now on (DrainGrace).
	exited()
	// wait returns once the stream is done.
	wait()
	// abort: the process did not start.
	abort()
}

// Add makes *dst, the destination of one of the attempt's streams, pass
// through the tap: what the destination takes is written to tap too,
// whose writes must not fail. Call it before the process starts.
func (t *Tap) Add(dst *io.Writer, tap io.Writer) error {
	s, err := watchStream(dst, tap, &t.relays)
	if err != nil {
		return err
	}
	t.streams = append(t.streams, s)
	return nil
}

// Started tells that the attempt's process runs.
func (t *Tap) Started() {
	for _, s := range t.streams {
		s.started()
	}
}

// Exited tells that the attempt's process has been reaped: what is left
// to read gets DrainGrace to arrive.
func (t *Tap) Exited() {
	for _, s := range t.streams {
		s.exited()
	}
}

// Abort releases the streams of an attempt that did not start.
func (t *Tap) Abort() {
	for _, s := range t.streams {
		s.abort()
	}
}

// Wait returns once every tapped stream is done.
func (t *Tap) Wait() {
	for _, s := range t.streams {
		s.wait()
	}
}

// tee passes a stream on to dst, byte for byte, and shows what dst took
// to the tap m, whose writes never fail.
type tee struct {
	dst io.Writer
	m   io.Writer
}

// Write writes p to dst, then what dst took to the tap.
func (t *tee) Write(p []byte) (int, error) {
	n, err := t.dst.Write(p)
	t.show(p[:n])
	return n, err
}

// show shows p, which dst has taken, to the tap.
func (t *tee) show(p []byte) { _, _ = t.m.Write(p) }

// ReadFrom copies r through Write with a buffer larger than io.Copy's.
func (t *tee) ReadFrom(r io.Reader) (int64, error) {
	buf := make([]byte, teeBuffer)
	var total int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			w, werr := t.Write(buf[:n])
			total += int64(w)
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}
