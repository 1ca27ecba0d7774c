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

	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/internal/stdio"
	"github.com/b0a38808/retry/runner/classify"
	"github.com/b0a38808/retry/runner/match"
)

// attempt runs one attempt with std as its stdin and stdout, for at most
// limit (0: no limit), records how it ended in a, and returns what its
// watched output showed and whether it had the terminal's foreground.
func (r *run) attempt(ctx context.Context, a *Attempt, limit time.Duration, std stdio.IO) (out match.Output, foreground bool) {
	cmd := exec.Command(r.cfg.Command[0], r.cfg.Command[1:]...)
	cmd.Env = r.env.forAttempt(a.Number, r.slotsDown())
	cmd.Stdin, cmd.Stdout, cmd.Stderr = std.Stdin, std.Stdout, std.Stderr
	output, err := r.tapOutput(cmd, std.Joined)
	if err != nil {
		a.Started = r.clock.Now()
		a.StartErr = err
		a.ExitCode = classify.StartFailureCode(err)
		return match.Output{}, false
	}
	cmd.WaitDelay = stdio.DrainGrace // for the streams os/exec carries
	proc.Prepare(cmd)
	var stopped func()
	if r.term != nil {
		foreground = r.term.Hand(cmd)
		// An attempt stopped by Ctrl-Z stops retry's job with it.
		stopped = func() { r.term.Suspend(cmd.Process.Pid) }
	}

	a.Started = r.clock.Now()
	st, took := r.supervise(ctx, child{
		cmd:     cmd,
		start:   func() error { return start(cmd) },
		stopped: stopped,
		started: output.started,
		exited:  output.exited,
		what:    "the command",
	}, limit, a.Started)
	a.Duration = took
	if st.StartErr != nil {
		output.abort()
		if foreground {
			r.term.Restore()
		}
		a.StartErr = startError(st.StartErr, r.cfg.Command[0], cmd.Path)
		a.ExitCode = classify.StartFailureCode(a.StartErr)
		return match.Output{}, false
	}
	a.Exit = st
	if foreground {
		r.term.Reclaim(cmd.Process.Pid)
	}
	return output.finish(), foreground
}

// start starts cmd. A file that the system cannot execute (ENOEXEC: a
// script without a "#!" line) is run by /bin/sh instead, as execvp(3),
// and so env(1), timeout(1) and shells, run it: the same attempt, with
// the same environment, process group, terminal and streams.
func start(cmd *exec.Cmd) error {
	err := proc.Exec(cmd)
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
	return proc.Exec(cmd)
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
