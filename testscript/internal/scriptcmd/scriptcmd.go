// Package scriptcmd holds the commands that retry's black-box scripts
// share, in testscript and testscript/wine. It is internal: other Go
// programs cannot import it.
package scriptcmd

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"syscall"

	"github.com/rogpeppe/go-internal/testscript"
)

// Exitcode is the script command exitcode N COMMAND [ARG...]: it runs
// COMMAND and asserts that its exit status is exactly N. A death by
// signal S counts as 128+S, as a shell reports it.
func Exitcode(ts *testscript.TestScript, neg bool, args []string) {
	if neg {
		ts.Fatalf("unsupported: ! exitcode")
	}
	if len(args) < 2 {
		ts.Fatalf("usage: exitcode N command [arg...]")
	}
	want, err := strconv.Atoi(args[0])
	if err != nil {
		ts.Fatalf("exitcode: bad status %q", args[0])
	}
	err = ts.Exec(args[1], args[2:]...)
	got := 0
	var exit *exec.ExitError
	switch {
	case err == nil:
	case errors.As(err, &exit):
		got = exit.ExitCode()
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			got = 128 + int(ws.Signal())
		}
	default:
		ts.Fatalf("exitcode: %v", err)
	}
	if got != want {
		ts.Fatalf("exit status %d; want %d", got, want)
	}
}

// PathWithout is the script command pathwithout DIR NAME...: it makes DIR
// a directory of links to the programs on the script's $PATH, the first
// of each name as a lookup finds it, but for the names matching a NAME
// (a shell pattern such as python*). A script then sets PATH to DIR to run
// without those programs, whatever the host has installed: Debian's
// unrelated retry in /usr/bin, say, behind the test's own.
func PathWithout(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) < 2 {
		ts.Fatalf("usage: pathwithout DIR NAME...")
	}
	dir := ts.MkAbs(args[0])
	ts.Check(os.MkdirAll(dir, 0o777))
	for _, d := range filepath.SplitList(ts.Getenv("PATH")) {
		entries, err := os.ReadDir(d)
		if err != nil || d == "" {
			continue // a PATH may name directories that are not there
		}
		for _, e := range entries {
			name := e.Name()
			if hidden(name, args[1:]) {
				continue
			}
			if _, err := os.Lstat(filepath.Join(dir, name)); err == nil {
				continue // an earlier directory's
			}
			path := filepath.Join(d, name)
			if fi, err := os.Stat(path); err != nil || fi.IsDir() || fi.Mode()&0o111 == 0 {
				continue
			}
			ts.Check(os.Symlink(path, filepath.Join(dir, name)))
		}
	}
}

// hidden reports whether name matches one of patterns.
func hidden(name string, patterns []string) bool {
	for _, p := range patterns {
		if ok, err := filepath.Match(p, name); ok || err != nil && p == name {
			return true
		}
	}
	return false
}
