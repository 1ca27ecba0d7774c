//go:build unix

package stdio

import (
	"errors"
	"io"
	"os"
	"os/exec"
	"sync"
	"sync/atomic"
	"syscall"
	"time"

	"golang.org/x/sys/unix"

	"github.com/b0a38808/retry/internal/proc"
)

// drainLimit bounds, after the attempt's process has exited, how long its
// watched streams are read however the time goes: a process left behind
// that keeps writing to a slow destination could otherwise keep retry
// reading for ever.
const drainLimit = 20 * DrainGrace

// What a pipeTee's next returns when nothing moved.
var (
	// errNoRoom: the destination pipe is full.
	errNoRoom = errors.New("the destination pipe is full")
	// errNoTee: tee(2) refused this pair or failed (EINVAL, EPIPE, ...);
	// the copy goes on by read and write, which meet any failure of the
	// destination as they always have.
	errNoTee = errors.New("no tee to the destination")
)

// pipeStream is a watched stream that retry carries itself, through a pipe
// of its own, rather than leaving it to os/exec: after the process exits,
// os/exec closes its pipes DrainGrace later whatever is still unread, and
// a copy held up by a slow destination (a CI log reader) then loses the
// end of the output. Here the grace counts only the time spent waiting
// for more to read, not the time the destination takes.
type pipeStream struct {
	r, w   *os.File
	out    io.Writer   // the destination
	dst    *tee        // to the destination and the matcher
	relays *sync.Mutex // the attempt's streams start relays one at a time
	done   chan struct{}
	// copying: copy runs (carry, or started).
	copying bool
	bufSize int // of copy's reads; 0: teeBuffer
	// exitedAt is when the process was reaped; nil before.
	exitedAt atomic.Pointer[time.Time]
}

// watchStream makes *dst, the destination of one of the attempt's
// streams, a pipe that retry copies to the old destination and to m.
// relays is shared by the attempt's streams (see handOver).
func watchStream(dst *io.Writer, m io.Writer, relays *sync.Mutex) (stream, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	s := &pipeStream{r: r, w: w, out: *dst, dst: &tee{dst: *dst, m: m}, relays: relays, done: make(chan struct{})}
	*dst = w
	return s, nil
}

// grow makes the pipe and copy's reads n bytes large, before copy runs.
func (s *pipeStream) grow(n int) {
	setPipeSize(s.r, n)
	s.bufSize = n
}

func (s *pipeStream) carry() {
	if !s.copying {
		s.copying = true
		go s.copy()
	}
}

func (s *pipeStream) started() {
	_ = s.w.Close() // the process has its own copy
	s.carry()
}

func (s *pipeStream) abort() {
	_ = s.w.Close()
	if s.copying {
		return // the copy ends at the end of the pipe, and closes it
	}
	_ = s.r.Close()
	close(s.done)
}

func (s *pipeStream) exited() {
	now := time.Now()
	s.exitedAt.Store(&now)
	// Wakes a read that waits for output that may never come.
	_ = s.r.SetReadDeadline(now.Add(DrainGrace))
}

func (s *pipeStream) wait() { <-s.done }

// copy copies the pipe to the destination until the end of the stream,
// a failed write to the destination, or, once the process has exited,
// DrainGrace spent waiting for more (drainLimit at most). In that last case
// a process the attempt left behind still holds the pipe: the pipe goes
// to a relay (handOver), so that the process keeps its output. Into a
// destination pipe it copies in the kernel where it can (pipeTee).
func (s *pipeStream) copy() {
	defer close(s.done)
	defer s.r.Close()
	buf := make([]byte, max(s.bufSize, teeBuffer))
	fast := newPipeTee(s.r, s.out) // nil: read and write
	var waited time.Duration       // after the exit
	toEnd := false                 // no writer is left: read to the end
	for {
		var before time.Time // read only after the exit: not on every read
		if at := s.exitedAt.Load(); at != nil && !toEnd {
			before = time.Now()
			end := at.Add(drainLimit)
			if grace := before.Add(DrainGrace - waited); grace.Before(end) {
				end = grace
			}
			_ = s.r.SetReadDeadline(end)
		}
		var n int
		var err error
		if fast != nil {
			n, err = fast.next(buf)
		} else {
			n, err = s.r.Read(buf)
		}
		if at := s.exitedAt.Load(); at != nil {
			// Only the wait since the exit counts (before is zero when
			// the exit came during this read).
			from := *at
			if before.After(from) {
				from = before
			}
			waited += time.Since(from)
		}
		switch {
		case fast == nil:
			if n > 0 {
				if _, werr := s.dst.Write(buf[:n]); werr != nil {
					return
				}
			}
		case err == errNoRoom:
			fast.waitRoom() // as a write would wait, outside the grace
			continue
		case err == errNoTee:
			fast = nil
			continue
		case n > 0:
			s.dst.show(buf[:n]) // the destination has them already
		}
		if errors.Is(err, os.ErrDeadlineExceeded) {
			if !writerLeft(s.r) {
				// Only what the command wrote before it exited is
				// left (drainLimit came while the destination was
				// slow): read it to the end.
				toEnd = true
				_ = s.r.SetReadDeadline(time.Time{})
				continue
			}
			s.relays.Lock()
			handOver(s.r, s.out)
			s.relays.Unlock()
		}
		if err != nil {
			return // the end of the stream, the grace spent, or the pipe closed
		}
	}
}

// writerLeft reports whether some process still holds the writing end of
// the pipe r reads: poll reports POLLHUP once none does. When poll cannot
// tell, it says yes.
func writerLeft(r *os.File) bool {
	c, err := r.SyscallConn()
	if err != nil {
		return true
	}
	left := true
	_ = c.Control(func(fd uintptr) {
		fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
		if n, err := unix.Poll(fds, 0); err == nil && n > 0 && fds[0].Revents&unix.POLLHUP != 0 {
			left = false
		}
	})
	return left
}

// handOver gives the read end of a watched pipe that a process left
// behind by the attempt still holds (a daemon the command started) to a
// cat(1) of its own, which carries what that process writes on to dst
// once retry has stopped reading, and ends when the process closes the
// pipe. Closing the pipe instead would lose that output and make the
// process die from SIGPIPE on its next write. The relay runs in a process
// group of its own, without the parent-death signal, so that it outlives
// retry as the process does. When dst is not a file, or cat cannot start,
// the pipe is just closed, as os/exec closes it.
func handOver(r *os.File, dst io.Writer) {
	f, ok := dst.(*os.File)
	if h, held := dst.(*holdWriter); held {
		// The process left behind goes on writing into the attempt's
		// own held file, as into a file it had been given.
		f = (*holder)(h).relayFile()
		ok = f != nil
	}
	if !ok {
		return
	}
	path, err := exec.LookPath("cat")
	if err != nil {
		return
	}
	relay := exec.Command(path)
	relay.Stdin, relay.Stdout = r, f // os/exec makes r blocking for cat
	relay.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if proc.StartHelper(relay) == nil {
		go func() { _ = relay.Wait() }() // reaped if it ends while retry runs
	}
}
