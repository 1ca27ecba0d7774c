package stdio

import (
	"os"

	"golang.org/x/sys/unix"
)

// kcmpFile is kcmp(2)'s KCMP_FILE: do two descriptors refer to the same
// open file description?
const kcmpFile = 0

// sameDescription asks the kernel whether a and b are the same open file
// description (kcmp(2) on retry's own descriptors). known is false when
// it cannot answer: kcmp refused by a seccomp filter (EPERM), or a kernel
// built without it (ENOSYS).
func sameDescription(a, b *os.File) (same, known bool) {
	ca, err := a.SyscallConn()
	if err != nil {
		return false, false
	}
	cb, err := b.SyscallConn()
	if err != nil {
		return false, false
	}
	var r uintptr
	var errno unix.Errno
	pid := uintptr(unix.Getpid())
	ea := ca.Control(func(fa uintptr) {
		eb := cb.Control(func(fb uintptr) {
			r, _, errno = unix.Syscall6(unix.SYS_KCMP, pid, pid, kcmpFile, fa, fb, 0)
		})
		if eb != nil {
			errno = unix.EBADF
		}
	})
	if ea != nil || errno != 0 {
		return false, false
	}
	return r == 0, true
}
