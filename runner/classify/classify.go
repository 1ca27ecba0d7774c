// Package classify decides, after each attempt, whether another attempt
// may succeed. The whole classification order of the SPEC lives in
// Rules.Classify.
package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"syscall"

	"github.com/b0a38808/retry/runner/proc"
)

// Class is what an attempt's result says about retrying.
type Class int

// The classes of an attempt.
const (
	// Success: the attempt exited 0.
	Success Class = iota
	// Retryable: another attempt may succeed.
	Retryable
	// Permanent: another attempt would fail the same way.
	Permanent
	// Ambiguous: the attempt was cut short or killed and may have
	// committed an effect; the OnAmbiguous rule decides.
	Ambiguous
)

// String returns the name used in progress lines and the JSON report.
func (c Class) String() string {
	switch c {
	case Success:
		return "success"
	case Retryable:
		return "retryable"
	case Permanent:
		return "permanent"
	case Ambiguous:
		return "ambiguous"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// Facts is what one attempt did.
type Facts struct {
	// StartErr is set when the command could not be started.
	StartErr error
	// ExitCode is the exit status when the attempt exited (Signal == 0),
	// or the status reported for a start failure (126 or 127).
	ExitCode int
	// Signal is the signal the attempt died from, 0 when it exited.
	Signal syscall.Signal
	// TimedOut: the attempt was cut by its timeout or by the deadline.
	TimedOut bool
}

// Decision is the verdict on one attempt.
type Decision struct {
	Class Class
	// Retry says whether another attempt may start. It follows Class,
	// except for Ambiguous, where the OnAmbiguous rule decides.
	Retry bool
	// Reason says, for a person, which rule decided.
	Reason string
}

// Rules holds the classification rules of an operation. The zero value
// applies only the built-in rules.
type Rules struct {
	// StopOnAmbiguous makes an ambiguous attempt final (--on-ambiguous
	// stop); by default it is retried.
	StopOnAmbiguous bool
}

// permanentDefaults are the exit codes that the default rule treats as
// permanent: sysexits(3) codes for errors that retrying cannot fix, and
// the shell's "cannot execute" and "not found".
var permanentDefaults = map[int]string{
	64:  "EX_USAGE",
	65:  "EX_DATAERR",
	66:  "EX_NOINPUT",
	67:  "EX_NOUSER",
	68:  "EX_NOHOST",
	77:  "EX_NOPERM",
	78:  "EX_CONFIG",
	126: "cannot execute",
	127: "command not found",
}

// Classify applies the classification order to f: the first rule that
// matches decides.
func (r *Rules) Classify(f Facts) Decision {
	// 1. Success.
	if f.StartErr == nil && f.Signal == 0 && f.ExitCode == 0 {
		return Decision{Class: Success, Reason: "exit 0"}
	}
	// 2. The command cannot be started.
	if f.StartErr != nil {
		return Decision{Class: Permanent, Reason: startReason(f.StartErr)}
	}
	// 7. Cut by its timeout or the deadline, or killed by a signal.
	if f.TimedOut || f.Signal != 0 {
		return r.ambiguous(f)
	}
	// 9. The default.
	if name, ok := permanentDefaults[f.ExitCode]; ok {
		return Decision{Class: Permanent, Reason: fmt.Sprintf("default: exit %d is permanent (%s)", f.ExitCode, name)}
	}
	return Decision{Class: Retryable, Retry: true, Reason: fmt.Sprintf("default: exit %d may be transient", f.ExitCode)}
}

func (r *Rules) ambiguous(f Facts) Decision {
	what := "timed out"
	if !f.TimedOut {
		what = "killed by " + proc.SignalName(f.Signal)
	}
	if r.StopOnAmbiguous {
		return Decision{Class: Ambiguous, Reason: what + ": may have committed an effect, --on-ambiguous stop"}
	}
	return Decision{Class: Ambiguous, Retry: true, Reason: what + ": may have committed an effect"}
}

// StartFailureCode returns the exit status that reports a failure to
// start a command: 127 when it was not found, 126 otherwise (found but
// not executable), as shells do.
func StartFailureCode(err error) int {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) {
		return 127
	}
	return 126
}

func startReason(err error) string {
	if StartFailureCode(err) == 127 {
		return "cannot start: command not found"
	}
	if errors.Is(err, fs.ErrPermission) {
		return "cannot start: permission denied"
	}
	return "cannot start: " + err.Error()
}
