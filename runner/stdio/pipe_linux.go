package stdio

import (
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
