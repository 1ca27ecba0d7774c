//go:build unix

package stdio

import (
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// ReaderGone reports whether w is a pipe or socket whose reading end has
// closed (`retry ... | head -1` after head has exited), or a terminal that
// has hung up: nothing reads what is written there any more. It is false
// for any other writer.
func ReaderGone(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	c, err := f.SyscallConn()
	if err != nil {
		return false
	}
	gone := false
	_ = c.Control(func(fd uintptr) {
		// POLLERR and POLLHUP are reported whatever the events asked for.
		fds := []unix.PollFd{{Fd: int32(fd)}}
		n, err := unix.Poll(fds, 0)
		gone = err == nil && n > 0 && fds[0].Revents&(unix.POLLERR|unix.POLLHUP) != 0
	})
	return gone
}
