package runner

import (
	"context"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"time"

	"github.com/b0a38808/retry/runner/classify"
	"github.com/b0a38808/retry/runner/proc"
)

// pipeGrace bounds how long an attempt's output pipes are drained after
// its process exits, so that a grandchild holding them open cannot make
// retry hang.
const pipeGrace = 500 * time.Millisecond

// attempt runs one attempt, for at most limit (0: no limit), records how
// it ended in a, and returns what its watched output showed.
func (r *run) attempt(ctx context.Context, a *Attempt, limit time.Duration) classify.Output {
	cmd := exec.Command(r.cfg.Command[0], r.cfg.Command[1:]...)
	cmd.Env = r.env.forAttempt(a.Number)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = r.cfg.Stdin, r.cfg.Stdout, r.cfg.Stderr
	if cmd.Stdin == nil {
		cmd.Stdin = os.Stdin
	}
	if cmd.Stdout == nil {
		cmd.Stdout = os.Stdout
	}
	if cmd.Stderr == nil {
		cmd.Stderr = os.Stderr
	}
	finish := r.watchOutput(cmd)
	cmd.WaitDelay = pipeGrace
	proc.Prepare(cmd)

	a.Started = r.clock.Now()
	defer func() { a.Duration = r.clock.Now().Sub(a.Started) }()

	started := make(chan error, 1)
	exited := make(chan struct{})
	go func() {
		// The parent-death signal fires when the thread that started the
		// child exits: keep this goroutine on its thread until the child
		// has been waited for.
		runtime.LockOSThread()
		defer runtime.UnlockOSThread()
		if err := cmd.Start(); err != nil {
			started <- err
			return
		}
		started <- nil
		_ = cmd.Wait() // the status is in cmd.ProcessState
		close(exited)
	}()
	if err := <-started; err != nil {
		a.StartErr = err
		a.ExitCode = classify.StartFailureCode(err)
		return classify.Output{}
	}

	var timeout, kill <-chan time.Time
	if limit > 0 {
		t := time.NewTimer(limit)
		defer t.Stop()
		timeout = t.C
	}
	done := ctx.Done()
	stopping := false
	stop := func() {
		if stopping {
			return
		}
		stopping = true
		_ = proc.Signal(cmd, r.cfg.StopSignal)
		kill = time.After(r.cfg.KillAfter)
	}
	for {
		select {
		case <-exited:
			if stopping {
				// The first process is gone; whatever else of the group
				// ignored the stop signal is killed now, so nothing of the
				// attempt outlives it.
				_ = proc.Signal(cmd, syscall.SIGKILL)
			}
			recordExit(a, cmd.ProcessState)
			return finish()
		case <-timeout:
			a.TimedOut = true
			stop()
		case <-done:
			done = nil
			stop()
		case <-kill:
			kill = nil
			_ = proc.Signal(cmd, syscall.SIGKILL)
		}
	}
}

func recordExit(a *Attempt, ps *os.ProcessState) {
	ws, ok := ps.Sys().(syscall.WaitStatus)
	if ok && ws.Signaled() {
		a.Signal = ws.Signal()
		a.ExitCode = -1
		return
	}
	a.ExitCode = ps.ExitCode()
}
