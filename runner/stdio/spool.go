package stdio

import (
	"errors"
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
type spool struct {
	src  *os.File
	file spoolFile
	buf  []byte // replay's; attempts never overlap

	mu     sync.Mutex
	cond   *sync.Cond
	size   int64 // bytes read from src and written to file
	done   bool  // src ended, or file could not be written
	err    error // why file could not be written
	closed bool
	cur    *feed // the running attempt's
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
// pipe has taken the last one.
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
		off := s.size
		s.mu.Unlock()

		n, rerr := s.src.Read(buf)
		var werr error
		if n > 0 {
			_, werr = s.file.WriteAt(buf[:n], off)
		}

		s.mu.Lock()
		if werr == nil {
			s.size += int64(n)
		} else if !s.closed {
			s.err = werr
		}
		// A read error other than EOF ends the input as EOF would: the
		// attempt cannot be given bytes retry never got.
		s.done = rerr != nil || werr != nil
		done := s.done
		f := s.cur
		if f != nil && !f.live {
			f = nil // it replays what was just read from the file
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

func (s *spool) begin() (*os.File, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	setPipeSize(r, chunkSize)
	f := &feed{r: r, w: w, replayed: make(chan struct{})}
	s.mu.Lock()
	s.cur = f
	s.mu.Unlock()
	go s.replay(f)
	return r, nil
}

// replay copies the file into f's pipe from the start; once it has caught
// up, it hands f to the pump, or, when the input has ended, closes the
// pipe so that the attempt sees the end of file.
func (s *spool) replay(f *feed) {
	defer close(f.replayed)
	var pos int64
	for {
		s.mu.Lock()
		stopped, size, done := f.stopped, s.size, s.done
		if !stopped && pos == size && !done {
			f.live = true
			s.cond.Broadcast()
		}
		s.mu.Unlock()
		switch {
		case stopped:
			return
		case pos == size && done:
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
// reports a failure to spool, which has cut the attempt's input short.
func (s *spool) end() error {
	s.mu.Lock()
	f := s.cur
	s.cur = nil
	if f != nil {
		f.stopped, f.live = true, false
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
	s.mu.Unlock()
	return errors.Join(err, s.file.discard())
}
