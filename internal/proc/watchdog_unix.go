//go:build unix

package proc

import (
	"os"
	"os/exec"
	"strconv"
	"sync"
	"syscall"
	"time"
)

// watchdogScript waits for a word from retry on its stdin, a pipe only
// retry holds open, and kills the attempt's process group ($1) unless the
// word says the attempt has ended: a pipe that closes without it means
// retry died.
const watchdogScript = `read -r word; [ "$word" = done ] || kill -s KILL -- "-$1"`

// Watch gives the group, which runs, a watchdog: a shell
// that kills the whole group with SIGKILL if retry dies while the attempt
// runs (killed with SIGKILL, which it cannot catch). The parent-death
// signal reaches only the attempt's first process, and only on Linux;
// this reaches the processes it started too. The watchdog starts after
// the given delay, on a goroutine of its own, so that the attempt never
// waits for it and an attempt that ends sooner (`retry -- true`) costs
// none. It runs in a process group of its own, so that signals to retry's
// group leave it alone. Call release once the attempt's first process has
// been reaped: the watchdog then exits, or never starts, and leaves
// whatever the attempt left running alone. release waits for a start
// under way, so that no helper starts while the next attempt does (see
// StartHelper). When no watchdog can start (no /bin/sh), nothing happens.
func (g *Group) Watch(after time.Duration) (release func()) {
	pgid := g.cmd.Process.Pid
	var (
		mu       sync.Mutex
		released bool
		w        *os.File // retry's end of the watchdog's stdin
		dog      *exec.Cmd
	)
	timer := time.AfterFunc(after, func() {
		mu.Lock()
		defer mu.Unlock()
		if !released {
			w, dog = startWatchdog(pgid)
		}
	})
	return func() {
		timer.Stop()
		mu.Lock()
		defer mu.Unlock()
		if released {
			return
		}
		released = true
		if w == nil {
			return
		}
		_, _ = w.WriteString("done\n")
		_ = w.Close()
		go func() { _ = dog.Wait() }()
	}
}

// startWatchdog starts the watchdog of the process group pgid and returns
// the pipe that feeds it, or nil when it could not start.
func startWatchdog(pgid int) (*os.File, *exec.Cmd) {
	r, w, err := os.Pipe() // close-on-exec: no attempt inherits w
	if err != nil {
		return nil, nil
	}
	dog := exec.Command("/bin/sh", "-c", watchdogScript, "retry-watchdog", strconv.Itoa(pgid))
	dog.Stdin = r
	dog.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	err = StartHelper(dog)
	_ = r.Close()
	if err != nil {
		_ = w.Close()
		return nil, nil
	}
	return w, dog
}
