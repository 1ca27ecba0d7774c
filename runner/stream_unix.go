//go:build unix

package runner

import (
	"io"
	"os"
	"sync/atomic"
	"time"
)

// drainLimit bounds, after the attempt's process has exited, how long its
// watched streams are read however the time goes: a process left behind
// that keeps writing to a slow destination could otherwise keep retry
// reading for ever.
const drainLimit = 20 * pipeGrace

// pipeStream is a watched stream that retry carries itself, through a pipe
// of its own, rather than leaving it to os/exec: after the process exits,
// os/exec closes its pipes pipeGrace later whatever is still unread, and
// a copy held up by a slow destination (a CI log reader) then loses the
// end of the output. Here the grace counts only the time spent waiting
// for more to read, not the time the destination takes.
type pipeStream struct {
	r, w *os.File
	dst  io.Writer // the tee to the destination and the matcher
	done chan struct{}
	// exitedAt is when the process was reaped, in Unix nanoseconds; 0
	// before.
	exitedAt atomic.Int64
}

// watchStream makes *dst, the destination of one of the attempt's
// streams, a pipe that retry copies to the old destination and to m.
func watchStream(dst *io.Writer, m io.Writer) (stream, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	s := &pipeStream{r: r, w: w, dst: &tee{dst: *dst, m: m}, done: make(chan struct{})}
	*dst = w
	return s, nil
}

func (s *pipeStream) started() {
	_ = s.w.Close() // the process has its own copy
	go s.copy()
}

func (s *pipeStream) abort() {
	_ = s.w.Close()
	_ = s.r.Close()
	close(s.done)
}

func (s *pipeStream) exited() {
	now := time.Now()
	s.exitedAt.Store(now.UnixNano())
	// Wakes a read that waits for output that may never come.
	_ = s.r.SetReadDeadline(now.Add(pipeGrace))
}

func (s *pipeStream) wait() { <-s.done }

// copy copies the pipe to the destination until the end of the stream,
// a failed write to the destination, or, once the process has exited,
// pipeGrace spent waiting for more (drainLimit at most).
func (s *pipeStream) copy() {
	defer close(s.done)
	// Closing the pipe makes a process left holding it get SIGPIPE on its
	// next write, as os/exec's closing did.
	defer s.r.Close()
	buf := make([]byte, teeBuffer)
	var waited time.Duration // after the exit
	for {
		before := time.Now()
		if at := s.exitedAt.Load(); at != 0 {
			end := time.Unix(0, at).Add(drainLimit)
			if grace := before.Add(pipeGrace - waited); grace.Before(end) {
				end = grace
			}
			_ = s.r.SetReadDeadline(end)
		}
		n, err := s.r.Read(buf)
		if at := s.exitedAt.Load(); at != 0 {
			// Only the wait since the exit counts.
			from := time.Unix(0, at)
			if before.After(from) {
				from = before
			}
			waited += time.Since(from)
		}
		if n > 0 {
			if _, werr := s.dst.Write(buf[:n]); werr != nil {
				return
			}
		}
		if err != nil {
			return // the end of the stream, the grace spent, or the pipe closed
		}
	}
}
