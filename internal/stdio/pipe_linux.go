package stdio

import (
	"errors"
	"os"

	"golang.org/x/sys/unix"
)

// setPipeSize sets the buffer of f's pipe to n bytes, best effort. It goes
// through SyscallConn, as Fd would switch f to blocking mode.
func setPipeSize(f *os.File, n int) {
	c, err := f.SyscallConn()
	if err != nil {
		return
	}
	c.Control(func(fd uintptr) {
		unix.FcntlInt(fd, unix.F_SETPIPE_SZ, n)
	})
}

// pipeSize returns the size of f's pipe buffer, or 0.
func pipeSize(f *os.File) int {
	c, err := f.SyscallConn()
	if err != nil {
		return 0
	}
	n := 0
	c.Control(func(fd uintptr) {
		n, _ = unix.FcntlInt(fd, unix.F_GETPIPE_SZ, 0)
	})
	return max(n, 0)
}

// sendFile writes the first n bytes of src to dst in the kernel
// (sendfile(2)), at explicit offsets: src's file offset stays as it is.
// ok is false when nothing was sent because dst takes no sendfile: the
// caller then copies itself.
func sendFile(dst, src *os.File, n int64) (sent int64, ok bool, err error) {
	dc, err := dst.SyscallConn()
	if err != nil {
		return 0, false, nil
	}
	sc, err := src.SyscallConn()
	if err != nil {
		return 0, false, nil
	}
	var serr error
	rerr := sc.Read(func(sfd uintptr) bool {
		werr := dc.Write(func(dfd uintptr) bool {
			for sent < n {
				m, err := unix.Sendfile(int(dfd), int(sfd), &sent, int(min(n-sent, 1<<30)))
				switch {
				case err == unix.EINTR:
					continue
				case err == unix.EAGAIN:
					return false // dst is a pipe or socket the poller waits on
				case err != nil:
					serr = err
					return true
				case m == 0:
					return true
				}
			}
			return true
		})
		if serr == nil {
			serr = werr
		}
		return true
	})
	if sent == 0 && serr != nil && serr != unix.EPIPE && serr != unix.ENOSPC && serr != unix.EIO {
		return 0, false, nil // EINVAL and the like: no sendfile to dst
	}
	if serr != nil {
		serr = &os.PathError{Op: "write", Path: dst.Name(), Err: serr}
	}
	return sent, true, errors.Join(serr, rerr)
}
