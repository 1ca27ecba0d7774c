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

// spool replays a stream (a pipe, a socket, a terminal), which cannot be
// read twice: what is read from it is appended to a temporary file, and
// each attempt is fed through a pipe of its own, first from the file, then
// (once it has caught up) from the stream as it reads it. The stream is
// read only while an attempt waits for more, so `producer | retry --
// consumer` streams, and memory stays at a few chunks whatever the input.
//
// One goroutine (pump) reads the stream for the life of the spool, another
// (feed) copies the file into the running attempt's pipe. A read from the
// stream cannot be interrupted, so when an attempt ends the pump may stay
// blocked in it: nothing waits for it, and the next attempt gets those
// bytes after the spooled ones.
type spool struct {
	src  *os.File
	file *tempFile
	buf  []byte // the feeder's; attempts never overlap

	mu     sync.Mutex
	cond   *sync.Cond
	size   int64 // bytes read from src and written to file
	want   bool  // the running attempt has consumed all of file
	done   bool  // src ended, or file could not be written
	err    error // why file could not be written
	closed bool
	cur    *feed // the running attempt's
}

// feed is one attempt's pipe and the goroutine that fills it.
type feed struct {
	r, w    *os.File
	stopped bool // under spool.mu
	err     error
	exited  chan struct{} // closed when the goroutine returns; then err is set
}

func openSpool(src *os.File, dir string) (*spool, error) {
	file, err := createTemp(dir, "retry-stdin-*")
	if err != nil {
		return nil, err
	}
	s := &spool{src: src, file: file, buf: make([]byte, chunkSize)}
	s.cond = sync.NewCond(&s.mu)
	go s.pump()
	return s, nil
}

// pump reads src into file, one chunk whenever the running attempt has
// caught up, until src ends or the spool is closed.
func (s *spool) pump() {
	buf := make([]byte, chunkSize)
	for {
		s.mu.Lock()
		for !s.want && !s.closed {
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
		s.want = false
		s.cond.Broadcast()
		stop := s.done || s.closed
		s.mu.Unlock()
		if stop {
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
	f := &feed{r: r, w: w, exited: make(chan struct{})}
	s.mu.Lock()
	s.cur = f
	s.mu.Unlock()
	go s.feed(f)
	return r, nil
}

// feed copies the spool into f's pipe from the start, asking the pump for
// more whenever it has caught up, until the input ends (then the attempt
// sees end of file), the attempt stops reading, or end stops it.
func (s *spool) feed(f *feed) {
	defer close(f.exited)
	var pos int64
	for {
		s.mu.Lock()
		for pos == s.size && !s.done && !f.stopped {
			s.want = true
			s.cond.Broadcast()
			s.cond.Wait()
		}
		stopped, size, err := f.stopped, s.size, s.err
		s.mu.Unlock()
		if stopped {
			return
		}
		if pos == size {
			f.err = err
			f.w.Close()
			return
		}
		n := int(min(int64(len(s.buf)), size-pos))
		if _, err := s.file.ReadAt(s.buf[:n], pos); err != nil {
			f.err = err
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
// a write the attempt does not read.
func (s *spool) end() error {
	s.mu.Lock()
	f := s.cur
	s.cur = nil
	if f != nil {
		f.stopped = true
		s.want = false
		s.cond.Broadcast()
	}
	s.mu.Unlock()
	if f == nil {
		return nil
	}
	f.w.Close()
	<-f.exited
	f.r.Close()
	return f.err
}

func (s *spool) close() error {
	err := s.end()
	s.mu.Lock()
	s.closed = true
	s.cond.Broadcast()
	s.mu.Unlock()
	if errors.Is(err, io.EOF) {
		err = nil
	}
	return errors.Join(err, s.file.discard())
}
