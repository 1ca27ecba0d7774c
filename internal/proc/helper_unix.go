//go:build unix

package proc

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"

	"golang.org/x/sys/unix"
)

// StartHelper starts cmd, a helper of retry's own (a relay, a watchdog),
// without the descriptors above stderr that retry inherited from its
// caller. An attempt gets those, as from any wrapper (`retry -- cmd
// 3>file`); a helper that outlives the attempt must not hold them, or a
// caller waiting for the end of such a pipe (`x=$(retry ... 3>&1)`) would
// wait for the helper. They are marked close-on-exec while cmd starts,
// then restored. Nothing else starts a process meanwhile: retry starts
// its helpers only while no attempt is being started.
func StartHelper(cmd *exec.Cmd) error {
	var marked []int
	dir := "/dev/fd"
	if runtime.GOOS == "linux" {
		dir = "/proc/self/fd"
	}
	if entries, err := os.ReadDir(dir); err == nil {
		for _, e := range entries {
			fd, err := strconv.Atoi(e.Name())
			if err != nil || fd <= 2 {
				continue
			}
			flags, err := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0)
			if err != nil || flags&unix.FD_CLOEXEC != 0 {
				continue // closed meanwhile (the directory's own), or retry's own
			}
			if _, err := unix.FcntlInt(uintptr(fd), unix.F_SETFD, flags|unix.FD_CLOEXEC); err == nil {
				marked = append(marked, fd)
			}
		}
	}
	err := cmd.Start()
	for _, fd := range marked {
		if flags, ferr := unix.FcntlInt(uintptr(fd), unix.F_GETFD, 0); ferr == nil {
			_, _ = unix.FcntlInt(uintptr(fd), unix.F_SETFD, flags&^unix.FD_CLOEXEC)
		}
	}
	return err
}
