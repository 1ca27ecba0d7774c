package stdio

import (
	"io"
	"os"
	"syscall"

	"golang.org/x/sys/unix"
)

// pipeTee passes an attempt's pipe on to a destination that is a pipe
// too, in the kernel: tee(2) gives the destination the pipe's pages
// without copying them, and retry then reads the same bytes out of the
// pipe for the matcher. One copy of each byte instead of two.
type pipeTee struct {
	src, dst syscall.RawConn
	// The state of one next, and its callbacks, made once: a closure
	// made for every call would be an allocation per read.
	buf        []byte
	n          int
	err        error
	sfd        int
	onSrc      func(fd uintptr) bool
	teeToDst   func(fd uintptr)
	fds        []unix.PollFd
	pollForDst func(fd uintptr)
}

// teePipe is the size pipeTee gives the attempt's pipe and the
// destination pipe, where they are smaller.
const teePipe = 256 << 10

// newPipeTee returns the tee from src, the attempt's pipe, to dst, or nil
// when dst is not a pipe (a file, a terminal, a writer of retry's own).
func newPipeTee(src *os.File, dst io.Writer) *pipeTee {
	f, ok := dst.(*os.File)
	if !ok {
		return nil
	}
	sc, err := src.SyscallConn()
	if err != nil {
		return nil
	}
	dc, err := f.SyscallConn()
	if err != nil {
		return nil
	}
	pipe := false
	_ = dc.Control(func(fd uintptr) {
		var st unix.Stat_t
		pipe = unix.Fstat(int(fd), &st) == nil && st.Mode&unix.S_IFMT == unix.S_IFIFO
	})
	if !pipe {
		return nil
	}
	// Larger pipes on both sides cost fewer wake-ups of the three
	// processes; the attempt's pipe must not outgrow dst, or each tee
	// finds room for a few pages only.
	size := pipeSize(f)
	if size < teePipe {
		setPipeSize(f, teePipe)
		size = pipeSize(f)
	}
	if n := min(size, teePipe); pipeSize(src) < n {
		setPipeSize(src, n)
	}
	t := &pipeTee{src: sc, dst: dc, fds: make([]unix.PollFd, 1)}
	t.onSrc, t.teeToDst, t.pollForDst = t.step, t.tee, t.poll
	return t
}

// next waits, under src's read deadline, for src to hold output, passes
// up to len(buf) bytes of it to dst, then reads those bytes into buf.
// When nothing moved it returns errNoRoom (call waitRoom, then next
// again), errNoTee, io.EOF at the end of the stream, or the poller's
// error (the deadline, src closed).
func (t *pipeTee) next(buf []byte) (int, error) {
	t.buf, t.n, t.err = buf, 0, nil
	if err := t.src.Read(t.onSrc); err != nil {
		return t.n, err
	}
	return t.n, t.err
}

// step is next's work once src is readable, or may be: false waits for
// it.
func (t *pipeTee) step(sfd uintptr) bool {
	t.sfd = int(sfd)
	// tee(2) into a pipe without a reader fails and signals SIGPIPE
	// even with nothing to pass: it runs only when src holds output,
	// where a write would have run too. TIOCINQ is FIONREAD.
	held, err := unix.IoctlGetInt(t.sfd, unix.TIOCINQ)
	if err != nil {
		t.err = errNoTee
		return true
	}
	if held == 0 {
		// Empty, or at its end. Output that comes after this look
		// wakes the poller's wait.
		t.fds[0] = unix.PollFd{Fd: int32(t.sfd), Events: unix.POLLIN}
		_, err := unix.Poll(t.fds, 0)
		for err == unix.EINTR {
			_, err = unix.Poll(t.fds, 0)
		}
		if ev := t.fds[0].Revents; err == nil && ev&unix.POLLHUP != 0 && ev&unix.POLLIN == 0 {
			t.err = io.EOF // no writer is left, and src is empty
			return true
		}
		return false
	}
	if t.dst.Control(t.teeToDst) != nil {
		t.err = errNoTee
		return true
	}
	teed := t.n
	t.n = 0
	switch {
	case t.err == unix.EAGAIN, t.err == nil && teed == 0:
		t.err = errNoRoom // src holds output: dst is full
		return true
	case t.err != nil:
		t.err = errNoTee
		return true
	}
	// The bytes dst took are still at the head of src, which only this
	// goroutine reads: one read takes them all.
	for t.n < teed && t.err == nil {
		var m int
		m, t.err = ignoringEINTR(unix.Read, t.sfd, t.buf[t.n:teed])
		if t.err == nil && m == 0 {
			t.err = io.ErrUnexpectedEOF
		}
		t.n += max(m, 0)
	}
	if t.err != nil {
		t.err = os.NewSyscallError("read", t.err)
	}
	return true
}

// tee duplicates what src holds into dst, without waiting in the kernel:
// the poller waits for src, waitRoom for dst.
func (t *pipeTee) tee(dfd uintptr) {
	for {
		var n int64
		n, t.err = unix.Tee(t.sfd, int(dfd), len(t.buf), unix.SPLICE_F_NONBLOCK)
		if t.err != unix.EINTR {
			t.n = int(n)
			return
		}
	}
}

// waitRoom waits until dst has room, or has no reader left (tee then
// fails, and the write that follows sees EPIPE), as a write to a
// blocking dst would wait.
func (t *pipeTee) waitRoom() { _ = t.dst.Control(t.pollForDst) }

func (t *pipeTee) poll(fd uintptr) {
	t.fds[0] = unix.PollFd{Fd: int32(fd), Events: unix.POLLOUT}
	for {
		if _, err := unix.Poll(t.fds, -1); err != unix.EINTR {
			return
		}
	}
}

// ignoringEINTR calls read until it fails with something other than
// EINTR.
func ignoringEINTR(read func(int, []byte) (int, error), fd int, p []byte) (int, error) {
	for {
		n, err := read(fd, p)
		if err != unix.EINTR {
			return n, err
		}
	}
}
