//go:build unix

package proc

import (
	"os"
	"os/exec"
	"strings"
	"syscall"
)

// Exec starts cmd as cmd.Start does: the same program, arguments,
// environment (later duplicates of a name win), directory, streams and
// SysProcAttr, and the same errors. When cmd's streams are files or nil
// and it has no extra files, it starts it with syscall.ForkExec. On Linux
// os.StartProcess first checks, once a process, that pidfds work, by
// starting and reaping a process of its own: 0.15 to 0.2 ms before
// retry's first attempt could start. retry waits for its attempts itself
// (Group.Wait) and signals their groups by pid, so the pid is all it
// needs: cmd.Process gets only its Pid, and cmd.Wait, once the process is
// reaped, has nothing to release. Otherwise Exec is cmd.Start.
func Exec(cmd *exec.Cmd) error {
	files, ok := execFiles(cmd)
	if !ok {
		return cmd.Start()
	}
	env, ok := execEnv(cmd.Env)
	if !ok {
		return cmd.Start() // which reports the bad variable
	}
	var opened []*os.File
	defer func() {
		for _, f := range opened {
			_ = f.Close()
		}
	}()
	fds := make([]uintptr, len(files))
	for i, f := range files {
		if f == nil {
			flag := os.O_WRONLY
			if i == 0 {
				flag = os.O_RDONLY
			}
			var err error
			if f, err = os.OpenFile(os.DevNull, flag, 0); err != nil {
				return err
			}
			opened = append(opened, f)
		}
		fds[i] = f.Fd()
	}
	pid, err := syscall.ForkExec(cmd.Path, cmd.Args, &syscall.ProcAttr{Dir: cmd.Dir, Env: env, Files: fds, Sys: cmd.SysProcAttr})
	if err != nil {
		return &os.PathError{Op: "fork/exec", Path: cmd.Path, Err: err}
	}
	cmd.Process = &os.Process{Pid: pid}
	return nil
}

// execFiles returns cmd's stdin, stdout and stderr when Exec can give
// them to the process itself: each a file or nil, no extra files, cmd
// not started, its program found.
func execFiles(cmd *exec.Cmd) ([]*os.File, bool) {
	if cmd.Process != nil || cmd.Err != nil || cmd.Path == "" || cmd.Env == nil || len(cmd.ExtraFiles) > 0 || cmd.Cancel != nil {
		return nil, false
	}
	files := make([]*os.File, 3)
	for i, s := range []any{cmd.Stdin, cmd.Stdout, cmd.Stderr} {
		switch f := s.(type) {
		case nil:
		case *os.File:
			if f == nil {
				return nil, false
			}
			files[i] = f
		default:
			return nil, false
		}
	}
	return files, true
}

// execEnv returns env as os/exec passes it: a name given more than once
// keeps its last value, in that value's place; an entry without "=" is
// kept as it is, an empty one dropped. It reports false when an entry
// holds a NUL, which os/exec refuses.
func execEnv(env []string) ([]string, bool) {
	keep := make([]bool, len(env))
	seen := make(map[string]bool, len(env))
	n := 0
	for i := len(env) - 1; i >= 0; i-- {
		kv := env[i]
		if strings.IndexByte(kv, 0) >= 0 {
			return nil, false
		}
		eq := strings.IndexByte(kv, '=')
		if eq == 0 { // a name that starts with "="
			eq = strings.IndexByte(kv[1:], '=') + 1
		}
		switch {
		case eq < 0:
			keep[i] = kv != ""
		case !seen[kv[:eq]]:
			seen[kv[:eq]] = true
			keep[i] = true
		}
		if keep[i] {
			n++
		}
	}
	if n == len(env) {
		return env, true
	}
	out := make([]string, 0, n)
	for i, kv := range env {
		if keep[i] {
			out = append(out, kv)
		}
	}
	return out, true
}
