package runner

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"time"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/runner/classify"
	"github.com/b0a38808/retry/runner/proc"
	"github.com/b0a38808/retry/runner/stdio"
)

// watchdogAfter is how long an attempt runs before its watchdog starts
// (proc.Watch): long enough that `retry -- true` never starts one, short
// enough that, started, it covers the attempt from its first 10 ms on.
const watchdogAfter = 2 * time.Millisecond

// attempt runs one attempt with std as its stdin and stdout, for at most
// limit (0: no limit), records how it ended in a, and returns what its
// watched output showed and whether it held the terminal's foreground.
func (r *run) attempt(ctx context.Context, a *Attempt, limit time.Duration, std stdio.Attempt) (out classify.Output, held bool) {
	cmd := exec.Command(r.cfg.Command[0], r.cfg.Command[1:]...)
	cmd.Env = r.env.forAttempt(a.Number)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = std.Stdin, std.Stdout, std.Stderr
	output, err := r.tapOutput(cmd)
	if err != nil {
		a.Started = r.clock.Now()
		a.StartErr = err
		a.ExitCode = classify.StartFailureCode(err)
		return classify.Output{}, false
	}
	cmd.WaitDelay = stdio.DrainGrace // for the streams os/exec carries
	proc.Prepare(cmd)
	var stopped func()
	if r.term != nil {
		held = r.term.Hand(cmd)
		// An attempt stopped by Ctrl-Z stops retry's job with it.
		stopped = func() { r.term.Suspend(cmd.Process.Pid) }
	}

	a.Started = r.clock.Now()

	started := make(chan error, 1)
	exited := make(chan exitcodes.Exit, 1) // as soon as the process is reaped
	released := make(chan struct{})        // then, once its pipes are drained
	go func() {
		defer close(released)
		// The parent-death signal fires when the thread that started the
		// child exits: keep this goroutine on its thread until the child
		// has been reaped. Not longer: waking a goroutine locked to its
		// thread costs a hand-off between threads, and draining the
		// output after the child has gone waits for other goroutines.
		runtime.LockOSThread()
		if err := r.signals.start(cmd, func() error { return start(cmd) }); err != nil {
			runtime.UnlockOSThread()
			started <- err
			return
		}
		started <- nil
		proc.Wait(cmd, stopped, func(st exitcodes.Exit) {
			runtime.UnlockOSThread()
			exited <- st
		})
	}()
	if err := <-started; err != nil {
		a.Duration = r.clock.Now().Sub(a.Started)
		output.abort()
		if held {
			r.term.Restore()
		}
		a.StartErr = startError(err, r.cfg.Command[0], cmd.Path)
		a.ExitCode = classify.StartFailureCode(a.StartErr)
		return classify.Output{}, false
	}
	output.started()

	var timeout, kill <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timeout = t.C
	}
	// A watchdog kills the attempt's whole group if retry is killed
	// (proc.Watch), from watchdogAfter on; one that ends sooner does
	// without the cost of starting it.
	release := proc.Watch(cmd, watchdogAfter)
	done := ctx.Done()
	stopping := false
	// stop ends the attempt: the stop signal, then SIGKILL after the
	// grace. A cancelling signal has already been forwarded: it is the
	// stop signal then.
	stop := func(signal bool) {
		if stopping {
			return
		}
		stopping = true
		if signal {
			r.signals.stop(r.cfg.StopSignal)
		}
		kill = time.After(r.cfg.KillAfter)
	}
	for {
		select {
		case st := <-exited:
			// The attempt took as long as its first process: the time
			// its pipes take to drain is not its own, and its timeout
			// no longer runs.
			a.Duration = r.clock.Now().Sub(a.Started)
			if ctx.Err() != nil || r.signals.cancelling() {
				// Cancelled as the process ended (perhaps by the very
				// signal it died from, forwarded a moment ago): the rest
				// of its group is stopped as with any cancel.
				stop(cancelSignal(ctx) == 0)
			}
			if stopping {
				// The first process is gone; the rest of the group has
				// what is left of the grace to end (signals still reach
				// it: a second TERM kills it), then SIGKILL, so nothing of
				// the attempt outlives it.
				endGroup(cmd, kill)
			}
			// Whatever the attempt left running is left alone from here;
			// what it still writes gets stdio.DrainGrace to arrive.
			output.exited()
			release()
			<-released
			st.TimedOut, st.SignalSent = a.TimedOut, r.signals.ended(st.Signal)
			a.Exit = st
			if held {
				r.term.Reclaim(cmd.Process.Pid)
			}
			return output.finish(), held
		case <-timeout:
			a.TimedOut = true
			stop(true)
		case <-done:
			done = nil
			stop(cancelSignal(ctx) == 0)
		case <-kill:
			kill = nil
			r.signals.send(syscall.SIGKILL)
		}
	}
}

// start starts cmd. A file that the system cannot execute (ENOEXEC: a
// script without a "#!" line) is run by /bin/sh instead, as execvp(3),
// and so env(1), timeout(1) and shells, run it: the same attempt, with
// the same environment, process group, terminal and streams.
func start(cmd *exec.Cmd) error {
	err := cmd.Start()
	if !errors.Is(err, syscall.ENOEXEC) || runtime.GOOS == "windows" {
		return err
	}
	// A Cmd starts only once, even when starting it failed: cmd becomes
	// a new one that runs the shell.
	sh := exec.Command("/bin/sh", append([]string{cmd.Path}, cmd.Args[1:]...)...)
	sh.Dir, sh.Env, sh.ExtraFiles = cmd.Dir, cmd.Env, cmd.ExtraFiles
	sh.Stdin, sh.Stdout, sh.Stderr = cmd.Stdin, cmd.Stdout, cmd.Stderr
	sh.SysProcAttr, sh.WaitDelay = cmd.SysProcAttr, cmd.WaitDelay
	*cmd = *sh
	return cmd.Start()
}

// startError returns why the command name could not be started. A name
// searched in PATH that is there only as a file that is not executable is
// "permission denied" (126), not "not found" (127): execvp(3), and so
// env(1), timeout(1) and shells, report it so. An empty name is not found.
// A file that is there, at path, but "not found" by the system names an
// interpreter on its "#!" line that is not: still 127, as for timeout(1),
// but said so.
func startError(err error, name, path string) error {
	if name == "" {
		return &exec.Error{Name: name, Err: exec.ErrNotFound}
	}
	if errors.Is(err, fs.ErrNotExist) && !errors.Is(err, exec.ErrNotFound) && path != "" {
		if fi, serr := os.Stat(path); serr == nil && fi.Mode().IsRegular() {
			return fmt.Errorf("%s: %w", name, classify.ErrNoInterpreter)
		}
	}
	if !errors.Is(err, exec.ErrNotFound) || runtime.GOOS == "windows" || strings.ContainsRune(name, '/') {
		return err
	}
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		if dir == "" {
			dir = "."
		}
		if fi, serr := os.Stat(filepath.Join(dir, name)); serr == nil && fi.Mode().IsRegular() {
			return &exec.Error{Name: name, Err: fs.ErrPermission}
		}
	}
	return err
}

// groupPoll is how often endGroup looks whether the group has ended.
const groupPoll = 20 * time.Millisecond

// endGroup waits until no process of cmd's group runs any more, or until
// kill fires, and then kills what is left of the group. A nil kill (it
// has fired) kills at once.
func endGroup(cmd *exec.Cmd, kill <-chan time.Time) {
	if kill != nil {
		tick := time.NewTicker(groupPoll)
		defer tick.Stop()
	wait:
		for proc.GroupRunning(cmd) {
			select {
			case <-kill:
				break wait
			case <-tick.C:
			}
		}
	}
	_ = proc.Signal(cmd, syscall.SIGKILL)
}
