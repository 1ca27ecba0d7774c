// Package classify decides, after each attempt, whether another attempt
// may succeed. The classification order is data, Order's steps, which
// Rules.Classify takes in turn; the manual states it for users
// (docs/manual.md, "Classification"). What an attempt's output held it
// asks runner/match. It is API: other Go programs may import it.
package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"syscall"
	"time"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/runner/match"
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
	// Failure: the run that ends an operation running until a failure
	// (retry --until fail). Classify never returns it: the runner gives
	// it to a run that Classify did not call a success.
	Failure
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
	case Failure:
		return "failure"
	}
	return fmt.Sprintf("Class(%d)", int(c))
}

// Facts is what one attempt did: how it ended, and what its output
// showed.
type Facts struct {
	exitcodes.Exit
	// Output is what the attempt's matched streams showed; zero when
	// they were not read.
	Output match.Output
}

// Decision is the verdict on one attempt.
type Decision struct {
	Class Class
	// Retry says whether another attempt may start. It follows Class,
	// except for Ambiguous, where the OnAmbiguous rule decides.
	Retry bool
	// Reason says, for a person, which rule decided.
	Reason string
	// Advice, when not empty, tells a person how to let the rules decide
	// next time: the flag that shows the messages a preset reads.
	Advice string
}

// Rules holds the classification rules of an operation. The zero value
// applies only the built-in rules.
type Rules struct {
	// StopOnAmbiguous makes an ambiguous attempt final (--on-ambiguous
	// stop); by default it is retried.
	StopOnAmbiguous bool
	// StopOn and RetryOn are the exit-code rules (--stop-on, --retry-on
	// and presets), in the order given.
	StopOn, RetryOn []CodeRule
	// StopIf and RetryIf are the output rules (--stop-if, --retry-if and
	// presets), matched line by line against the streams Read names.
	StopIf, RetryIf []*match.Pattern
	// FailIf are the --fail-if rules: an exit 0 whose output matched
	// one is a failure.
	FailIf []*match.Pattern
	// Read says which streams the output rules and hints read (--match).
	Read StreamChoice
	// Hints turns on server hints (HintPattern, or Retry-After lines);
	// MaxHint is the longest hinted wait that is trusted; a longer hint
	// is clamped to it, so 0 trusts no hint (--max-hint 0).
	Hints       bool
	HintPattern *match.Pattern
	MaxHint     time.Duration

	presets []Preset // added by AddPreset
	quiet   *Quiet   // found by CheckCommand
	// search and retryAfter are shared by the Matchers of the attempts,
	// made by NewMatcher.
	search     *match.Search
	retryAfter *match.Pattern
}

// CodeRule is a set of exit codes and where it was given: From is empty
// for the command line, or "preset NAME".
type CodeRule struct {
	Codes Codes
	From  string
}

// permanentDefaults are the exit codes that the default rule treats as
// permanent: sysexits(3) codes for errors that retrying cannot fix, and
// the shell's "cannot execute" and "not found".
var permanentDefaults = map[int]string{
	64:                           "EX_USAGE",
	65:                           "EX_DATAERR",
	66:                           "EX_NOINPUT",
	67:                           "EX_NOUSER",
	68:                           "EX_NOHOST",
	77:                           "EX_NOPERM",
	78:                           "EX_CONFIG",
	int(exitcodes.CannotExecute): "cannot execute",
	int(exitcodes.NotFound):      "command not found",
}

// DefaultPermanent returns the exit codes that the default rule treats as
// permanent, for a person reading the rules (retry explain).
func DefaultPermanent() Codes {
	var c Codes
	for code := range permanentDefaults {
		c.Add(code)
	}
	return c
}

// findCode returns the first rule listing code.
func findCode(rules []CodeRule, code int) (CodeRule, bool) {
	for _, c := range rules {
		if c.Codes.Contains(code) {
			return c, true
		}
	}
	return CodeRule{}, false
}

// codeReason reads "exit 75 is in --retry-on" or, for a preset, "exit 7
// is in --retry-on 5-7,28 of preset curl".
func codeReason(code int, c CodeRule, kind RuleKind) string {
	if c.From == "" {
		return fmt.Sprintf("exit %d is in %s", code, kind)
	}
	return fmt.Sprintf("exit %d is in %s %s of %s", code, kind, c.Codes, c.From)
}

// matchReason reads `stderr matched --stop-if "denied"` or, for a
// preset, whose expressions are long, the line that matched:
// `stderr matched --retry-if of preset curl: "curl: (22) ..."`.
func matchReason(m *match.Match, kind RuleKind) string {
	if m.From == "" {
		return fmt.Sprintf("%s matched %s %q", m.Stream, kind, m.Pattern)
	}
	return fmt.Sprintf("%s matched %s of %s: %q", m.Stream, kind, m.From, m.Line)
}

// howEnded says how an attempt that did not time out ended: "exit 3", or
// "killed by SIGUSR1 from retry" for a signal retry sent or forwarded.
func howEnded(f Facts) string {
	switch {
	case f.Signal == 0:
		return fmt.Sprintf("exit %d", f.ExitCode)
	case f.SignalSent:
		return "killed by " + proc.SignalName(f.Signal) + " from retry"
	}
	return "killed by " + proc.SignalName(f.Signal)
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
// start a command: exitcodes.NotFound (127) when it, or the interpreter
// its "#!" line names, was not found, exitcodes.CannotExecute (126)
// otherwise (found but not executable, or not startable for the moment),
// as shells do.
func StartFailureCode(err error) int {
	if errors.Is(err, exec.ErrNotFound) || errors.Is(err, fs.ErrNotExist) || errors.Is(err, ErrNoInterpreter) {
		return int(exitcodes.NotFound)
	}
	return int(exitcodes.CannotExecute)
}

// transientStartError reports whether err, a failure to start a
// command, may pass by itself, and returns the system error that says so:
// the file is open for writing (ETXTBSY: a binary still being written by
// a deploy or a build), the system or retry is short of processes, memory
// or file descriptors for the moment (fork's EAGAIN and ENOMEM, ENFILE,
// EMFILE), or the call was interrupted (EINTR). Every other error
// (ENOENT, EACCES, EPERM, ENOEXEC, ENOTDIR, ELOOP, ENAMETOOLONG, ...) says
// something about the command that another attempt would find again.
func transientStartError(err error) (syscall.Errno, bool) {
	var errno syscall.Errno
	if !errors.As(err, &errno) {
		return 0, false
	}
	switch errno {
	case syscall.ETXTBSY, syscall.EAGAIN, syscall.ENOMEM, syscall.ENFILE, syscall.EMFILE, syscall.EINTR:
		return errno, true
	}
	return 0, false
}

// ErrNoInterpreter is why a command file that is there cannot start: the
// interpreter its "#!" line names is not. The system reports it as "not
// found", so its exit status is 127.
var ErrNoInterpreter = errors.New("the interpreter on its #! line was not found")

func startReason(err error) string {
	if errors.Is(err, ErrNoInterpreter) {
		return "cannot start: " + err.Error()
	}
	if StartFailureCode(err) == int(exitcodes.NotFound) {
		return "cannot start: command not found"
	}
	if errors.Is(err, fs.ErrPermission) {
		return "cannot start: permission denied"
	}
	return "cannot start: " + err.Error()
}
