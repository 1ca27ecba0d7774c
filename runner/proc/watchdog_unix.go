//go:build unix

package proc

import (
	"os"
	"os/exec"
	"strconv"
	"syscall"
)

// watchdogScript waits for a word from retry on its stdin, a pipe only
// retry holds open, and kills the attempt's process group ($1) unless the
// word says the attempt has ended: a pipe that closes without it means
// retry died.
const watchdogScript = `read -r word; [ "$word" = done ] || kill -s KILL -- "-$1"`

// Watch starts a watchdog for the process group of cmd, which runs: a
// shell that kills the whole group with SIGKILL if retry dies while the
// attempt runs (killed with SIGKILL, which it cannot catch). The
// parent-death signal reaches only the attempt's first process, and only
// on Linux; this reaches the processes it started too. The watchdog runs
// in a process group of its own, so that signals to retry's group leave
// it alone. Call release once the attempt's first process has been
// reaped: the watchdog then exits, and leaves whatever the attempt left
// running alone. When no watchdog can start (no /bin/sh), release does
// nothing.
func Watch(cmd *exec.Cmd) (release func()) {
	r, w, err := os.Pipe() // close-on-exec: no attempt inherits w
	if err != nil {
		return func() {}
	}
	dog := exec.Command("/bin/sh", "-c", watchdogScript, "retry-watchdog", strconv.Itoa(cmd.Process.Pid))
	dog.Stdin = r
	dog.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = StartAlone(dog)
	_ = r.Close()
	if err != nil {
		_ = w.Close()
		return func() {}
	}
	return func() {
		_, _ = w.WriteString("done\n")
		_ = w.Close()
		go func() { _ = dog.Wait() }()
	}
}
