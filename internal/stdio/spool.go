package stdio

import (
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
)

// ReadAhead is the most spool reads from a stream beyond what the running
// attempt has consumed: one read chunk plus the attempt's pipe buffer. It
// holds exactly on Linux, where the pipe buffer is set; elsewhere the
// system's pipe buffer may add to it.
const ReadAhead = 2 * chunkSize

// chunkSize is both the largest read from the stream and, on Linux, the
// size of the pipe buffer that feeds an attempt.
const chunkSize = 32 << 10

// spool replays a stream (a pipe, a socket), which cannot be read twice:
// what is read from it is appended to a temporary file, and each attempt
// is fed through a pipe of its own, first from the file, then, once it has
// caught up, from the stream as it is read. The stream is read only while
// an attempt has caught up and has taken what was read before, so
// `producer | retry -- consumer` streams, and memory stays at a few chunks
// whatever the input.
//
// One goroutine (pump) reads the stream for the life of the spool: it
// appends each chunk to the file and writes it to the attempt that has
// caught up. Another, per attempt (replay), copies the file into the
// attempt's pipe until it has caught up. A read from the stream cannot be
// interrupted, so when an attempt ends the pump may stay blocked in it:
// nothing waits for it, and the next attempt gets those bytes after the
// spooled ones.
//
// When the file cannot be written (a full $TMPDIR), the pump stops
// writing it but goes on passing the stream to the attempt that reads it,
// which still gets its whole input. The file, which now lacks part of the
// input, is discarded as soon as no replay reads it, and no attempt
// begins after that: it would start on part of the input.
type spool struct {
	src  *os.File
	file spoolFile
	buf  []byte // replay's; attempts never overlap

	mu         sync.Mutex
	cond       *sync.Cond
	size       int64 // bytes read from src and written to file
	done       bool  // src ended
	lost       error // why file could not be written: it lacks what was read since
	err        error // why file could not be read back
	replaying  bool  // a replay may be reading file
	discarded  bool  // file is closed and removed
	discardErr error // from discarding file
	closed     bool
	cur        *feed // the running attempt's
}

// feed is one attempt's pipe.
type feed struct {
	r, w     *os.File
	live     bool          // under spool.mu: caught up; the pump writes to w
	stopped  bool          // under spool.mu: the attempt has ended
	replayed chan struct{} // closed when replay returns
}

// spoolFile is where a spool keeps what it read: a tempFile, or in tests
// one whose writes fail.
type spoolFile interface {
	io.ReaderAt
	io.WriterAt
	discard() error
}

func openSpool(src *os.File, dir string) (*spool, error) {
	file, err := createTemp(dir, "retry-stdin-*")
	if err != nil {
		return nil, err
	}
	return newSpool(src, file), nil
}

// newSpool starts spooling src to file.
func newSpool(src *os.File, file spoolFile) *spool {
	s := &spool{src: src, file: file, buf: make([]byte, chunkSize)}
	s.cond = sync.NewCond(&s.mu)
	go s.pump()
	return s
}

// pump reads src into file, one chunk at a time while an attempt has
// caught up, and passes each chunk on to that attempt, until src ends or
// the spool is closed. The next chunk is read only once the attempt's
// pipe has taken the last one. Once file cannot be written, the chunks
// only go to the attempt.
func (s *spool) pump() {
	buf := make([]byte, chunkSize)
	for {
		s.mu.Lock()
		for !s.closed && (s.cur == nil || !s.cur.live) {
			s.cond.Wait()
		}
		if s.closed {
			s.mu.Unlock()
			return
		}
		off, spooling := s.size, s.lost == nil
		s.mu.Unlock()

		n, rerr := s.src.Read(buf)
		var werr error
		if n > 0 && spooling {
			_, werr = s.file.WriteAt(buf[:n], off)
		}

		s.mu.Lock()
		spooled := spooling && werr == nil
		if spooled {
			s.size += int64(n)
		}
		if werr != nil {
			s.lost = werr
			s.discardUnused()
		}
		// A read error other than EOF ends the input as EOF would: the
		// attempt cannot be given bytes retry never got.
		s.done = rerr != nil
		done := s.done
		f := s.cur
		for !spooled && f != nil && !f.live && !f.stopped && !s.closed {
			// The chunk is only in buf: the attempt, which began before
			// the file failed, gets it once it has replayed the file.
			s.cond.Wait()
		}
		if f != nil && !f.live {
			f = nil // it replays what was just read from the file, or has ended
		}
		s.mu.Unlock()

		if f != nil {
			if _, err := f.w.Write(buf[:n]); err != nil && !done {
				// The attempt closed its stdin, or ended: read no more
				// for it.
				s.mu.Lock()
				f.live = false
				s.mu.Unlock()
			}
			if done {
				f.w.Close() // the attempt sees the end of the input
			}
		}
		if done {
			return
		}
	}
}

// begin starts an attempt's replay; once file could not be written, it
// refuses: the attempt would get only part of the input.
func (s *spool) begin() (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	setPipeSize(r, chunkSize)
	f := &feed{r: r, w: w, replayed: make(chan struct{})}
	s.mu.Lock()
	lost := s.lost
	if lost == nil {
		s.cur, s.replaying = f, true
	}
	s.mu.Unlock()
	if lost != nil {
		r.Close()
		w.Close()
		return nil, fmt.Errorf("cannot replay: %w", lost)
	}
	go s.replay(f)
	return r, nil
}

func (s *spool) replayable() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.lost != nil {
		return fmt.Errorf("cannot replay: %w", s.lost)
	}
	return nil
}

// replay copies the file into f's pipe from the start; once it has caught
// up, it hands f to the pump, or, when the file holds the whole input,
// closes the pipe so that the attempt sees the end of file.
func (s *spool) replay(f *feed) {
	defer func() {
		s.mu.Lock()
		s.replaying = false
		s.discardUnused()
		s.mu.Unlock()
		close(f.replayed)
	}()
	var pos int64
	for {
		s.mu.Lock()
		stopped, size, whole := f.stopped, s.size, s.done && s.lost == nil
		if !stopped && pos == size && !whole {
			f.live = true
			s.cond.Broadcast()
		}
		s.mu.Unlock()
		switch {
		case stopped:
			return
		case pos == size && whole:
			f.w.Close()
			return
		case pos == size:
			return // the pump goes on
		}
		n := int(min(int64(len(s.buf)), size-pos))
		if _, err := s.file.ReadAt(s.buf[:n], pos); err != nil {
			s.mu.Lock()
			s.err = errors.Join(s.err, err)
			s.mu.Unlock()
			f.w.Close()
			return
		}
		if _, err := f.w.Write(s.buf[:n]); err != nil {
			return // the attempt closed its stdin, or end closed the pipe
		}
		pos += int64(n)
	}
}

// end stops feeding the attempt at once: closing the write end interrupts
// a write, by replay or the pump, that the attempt does not read. It
// reports a failure to read the file back, which has cut the attempt's
// input short. A failure to write the file has not (the pump went on
// feeding the attempt): begin reports that one, to the next attempt.
func (s *spool) end() error {
	s.mu.Lock()
	f := s.cur
	s.cur = nil
	if f != nil {
		f.stopped, f.live = true, false
		s.cond.Broadcast() // the pump may wait for f to catch up
	}
	err := s.err
	s.mu.Unlock()
	if f == nil {
		return nil
	}
	f.w.Close()
	<-f.replayed
	f.r.Close()
	return err
}

func (s *spool) close() error {
	err := s.end()
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.discard()
	err = errors.Join(err, s.discardErr)
	s.mu.Unlock()
	return err
}

// discardUnused discards file once it could not be written and no replay
// reads it: nothing will read it again, and a full disk gets the space
// back while the attempt goes on. The caller holds mu.
func (s *spool) discardUnused() {
	if s.lost != nil && !s.replaying {
		s.discard()
	}
}

// discard discards file, once. The caller holds mu.
func (s *spool) discard() {
	if !s.discarded {
		s.discarded = true
		s.discardErr = s.file.discard()
	}
}
