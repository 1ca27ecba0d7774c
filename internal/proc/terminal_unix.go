//go:build unix

package proc

import (
	"os"
	"os/exec"
	"os/signal"
	"syscall"
	"time"

	"golang.org/x/sys/unix"
)

// stopGrace is how long Suspend waits for retry's own stop to take effect
// before it takes SIGTSTP to be ignored.
const stopGrace = 100 * time.Millisecond

// Terminal is the controlling terminal retry was started on. While an
// attempt runs, its process group is the terminal's foreground group, so
// the attempt can read the terminal and Ctrl-C and Ctrl-Z reach it;
// between attempts retry's own group is. This is what a shell does for a
// job. It needs SIGTTOU ignored: retry takes the foreground back while it
// is itself in the background.
type Terminal struct {
	fd  int
	own int // retry's process group
}

// NewTerminal returns the terminal open as f.
func NewTerminal(f *os.File) *Terminal {
	return &Terminal{fd: int(f.Fd()), own: syscall.Getpgrp()}
}

func (t *Terminal) foreground() int {
	pgid, err := unix.IoctlGetInt(t.fd, unix.TIOCGPGRP)
	if err != nil {
		return -1
	}
	return pgid
}

func (t *Terminal) setForeground(pgid int) {
	_ = unix.IoctlSetPointerInt(t.fd, unix.TIOCSPGRP, pgid)
}

// Hand makes cmd, once started, have the terminal's foreground, if retry
// has it now: a retry running in the background leaves the terminal to
// whoever has it. It reports whether cmd will have it.
func (t *Terminal) Hand(cmd *exec.Cmd) bool {
	if t.foreground() != t.own {
		return false
	}
	// The child sets the foreground itself, before it runs the command,
	// so the command never starts in the background.
	cmd.SysProcAttr.Foreground = true
	cmd.SysProcAttr.Ctty = t.fd
	return true
}

// Restore gives the foreground back to retry after a start that failed
// once the child had taken it (exec failed after fork).
func (t *Terminal) Restore() {
	if t.foreground() != t.own {
		t.setForeground(t.own)
	}
}

// Reclaim gives the foreground back to retry if the attempt whose group
// is pgid holds it.
func (t *Terminal) Reclaim(pgid int) {
	if t.foreground() == pgid {
		t.setForeground(t.own)
	}
}

// Suspend is for an attempt (group pgid) that has stopped, as Ctrl-Z
// stops the terminal's foreground group: retry's own group (retry, and
// whatever shares its job) stops the same way, so the shell sees the job
// stopped. Once continued, it continues the attempt, in the terminal's
// foreground again if the job was brought there (fg), in the background
// otherwise (bg).
func (t *Terminal) Suspend(pgid int) {
	t.Reclaim(pgid)
	// The stop may take effect after kill returns (another thread takes
	// the signal): wait to be continued, and give up waiting only if no
	// stop came (SIGTSTP ignored).
	cont := make(chan os.Signal, 1)
	signal.Notify(cont, syscall.SIGCONT)
	defer signal.Stop(cont)
	_ = syscall.Kill(0, syscall.SIGTSTP)
	select {
	case <-cont:
	case <-time.After(stopGrace):
	}
	if t.foreground() == t.own {
		t.setForeground(pgid)
	}
	_ = syscall.Kill(-pgid, syscall.SIGCONT)
}

// HungUp reports whether the terminal has hung up (its other end closed,
// as when the window of a terminal emulator or an ssh connection goes),
// or is no longer retry's controlling terminal (its session's leader, the
// shell, is gone): what the kernel's SIGHUP to the foreground group
// announces.
func (t *Terminal) HungUp() bool {
	if _, err := unix.IoctlGetInt(t.fd, unix.TIOCGPGRP); err != nil {
		return true
	}
	fds := []unix.PollFd{{Fd: int32(t.fd)}}
	n, err := unix.Poll(fds, 0)
	return err == nil && n > 0 && fds[0].Revents&unix.POLLHUP != 0
}
