// Package cmd is retry's command line: flags, rendering of progress and
// reports, and the exit status. It is the only package that knows about
// cobra, terminals and stderr. Other Go programs can import it, but it is
// not API: it is retry's command line and changes with it; runner is the
// library.
package cmd

import (
	"errors"
	"fmt"
	"io"
	"os"
	"syscall"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/internal/stdio"
	"github.com/b0a38808/retry/runner"
)

// Execute runs retry with args (without the program name) and returns
// its exit status. When the status reports a death by signal, Execute
// first tries to die by that signal, so a calling shell sees it as such.
func Execute(version string, args []string) int {
	// The process exits next: the signals stay caught (see
	// runner.SignalCatcher.Stop).
	signals := runner.CatchSignals()
	stdout, stderr := proc.OwnOutput(os.Stdout), proc.OwnOutput(os.Stderr)
	status := executeWith(version, args, stdout, stderr, signals)
	if signals.LatePipe() && (stdio.ReaderGone(stdout) || stdio.ReaderGone(stderr)) {
		// A write of retry's own after the output watch found no reader:
		// retry dies by SIGPIPE, as such a write makes a program die.
		status = exitStatus{code: exitcodes.SignalBase + exitcodes.Code(syscall.SIGPIPE), signal: int(syscall.SIGPIPE)}
	}
	if status.signal != 0 {
		proc.Raise(syscall.Signal(status.signal))
	}
	return int(status.code)
}

// exitStatus is how retry ends: a code, and the signal to die by when the
// code reports one.
type exitStatus struct {
	code   exitcodes.Code
	signal int
}

// Error makes an exitStatus travel through cobra as an error.
func (s *exitStatus) Error() string { return fmt.Sprintf("exit status %d", s.code) }

// usageError is bad input: reported in one line, with an optional hint,
// and exit status 125 before the command runs. retry's own failures that
// a hint helps with (held output it lost) are reported so too.
type usageError struct {
	msg  string
	hint string
}

func (e *usageError) Error() string { return e.msg }

func usagef(hint, format string, args ...any) *usageError {
	return &usageError{msg: fmt.Sprintf(format, args...), hint: hint}
}

// execute runs retry in a process that goes on afterwards, as tests do:
// the signals are caught only while it runs.
func execute(version string, args []string, stdout, stderr io.Writer) exitStatus {
	signals := runner.CatchSignals()
	defer signals.Stop()
	return executeWith(version, args, stdout, stderr, signals)
}

// executeWith runs retry with signals catching the signals its attempts
// are given: started before the flags are parsed, it is waited for before
// the first attempt starts.
func executeWith(version string, args []string, stdout, stderr io.Writer, signals *runner.SignalCatcher) exitStatus {
	root := newRootCommand(version, args, stdout, stderr, signals)
	err := root.Execute()
	var status *exitStatus
	var usage *usageError
	switch {
	case err == nil:
		return exitStatus{code: exitcodes.OK}
	case errors.As(err, &status):
		return *status
	case errors.As(err, &usage):
		errorf(stderr, "%s", usage.msg)
		if usage.hint != "" {
			hintf(stderr, "%s", usage.hint)
		}
	default:
		errorf(stderr, "%s", err)
	}
	return exitStatus{code: exitcodes.Failed}
}

// errorf prints one "retry: " line on w. Messages are lowercase and end
// without a period.
func errorf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "retry: "+format+"\n", args...)
}

// hintf prints a "retry: hint: " line on w.
func hintf(w io.Writer, format string, args ...any) {
	fmt.Fprintf(w, "retry: hint: "+format+"\n", args...)
}
