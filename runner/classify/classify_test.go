package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"

	"github.com/b0a38808/retry/exitcodes"
)

func TestClassifyDefaults(t *testing.T) {
	notFound := &exec.Error{Name: "nope", Err: exec.ErrNotFound}
	denied := &fs.PathError{Op: "fork/exec", Path: "./x", Err: syscall.EACCES}
	for _, tc := range []struct {
		name  string
		rules Rules
		f     Facts
		class Class
		retry bool
		why   string
	}{
		{"exit 0", Rules{}, Facts{}, Success, false, "exit 0"},
		{"not found", Rules{}, Facts{Exit: exitcodes.Exit{StartErr: notFound, ExitCode: 127}}, Permanent, false, "cannot start: command not found"},
		{"not executable", Rules{}, Facts{Exit: exitcodes.Exit{StartErr: denied, ExitCode: 126}}, Permanent, false, "cannot start: permission denied"},
		{"exit 1", Rules{}, Facts{Exit: exitcodes.Exit{ExitCode: 1}}, Retryable, true, "default: exit 1 may be transient"},
		{"exit 75", Rules{}, Facts{Exit: exitcodes.Exit{ExitCode: 75}}, Retryable, true, "default: exit 75 may be transient"},
		{"exit 64", Rules{}, Facts{Exit: exitcodes.Exit{ExitCode: 64}}, Permanent, false, "default: exit 64 is permanent (EX_USAGE)"},
		{"exit 78", Rules{}, Facts{Exit: exitcodes.Exit{ExitCode: 78}}, Permanent, false, "default: exit 78 is permanent (EX_CONFIG)"},
		{"exit 126 from a shell", Rules{}, Facts{Exit: exitcodes.Exit{ExitCode: 126}}, Permanent, false, "default: exit 126 is permanent (cannot execute)"},
		{"exit 127 from a shell", Rules{}, Facts{Exit: exitcodes.Exit{ExitCode: 127}}, Permanent, false, "default: exit 127 is permanent (command not found)"},
		{"timed out", Rules{}, Facts{Exit: exitcodes.Exit{TimedOut: true, Signal: syscall.SIGTERM}}, Ambiguous, true, "timed out: may have committed an effect"},
		{"killed", Rules{}, Facts{Exit: exitcodes.Exit{Signal: syscall.SIGKILL}}, Ambiguous, true, "killed by SIGKILL: may have committed an effect"},
		{"ambiguous stop", Rules{StopOnAmbiguous: true}, Facts{Exit: exitcodes.Exit{Signal: syscall.SIGKILL}}, Ambiguous, false, "killed by SIGKILL: may have committed an effect, --on-ambiguous stop"},
		{"timeout that exited 0 is no success", Rules{}, Facts{Exit: exitcodes.Exit{TimedOut: true}}, Ambiguous, true, "timed out: may have committed an effect"},
		{"timeout that exited 0, --on-ambiguous stop", Rules{StopOnAmbiguous: true}, Facts{Exit: exitcodes.Exit{TimedOut: true}}, Ambiguous, false, "timed out: may have committed an effect, --on-ambiguous stop"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.rules.Classify(tc.f)
			if d.Class != tc.class || d.Retry != tc.retry || d.Reason != tc.why {
				t.Errorf("Classify(%+v) = %v, %v, %q; want %v, %v, %q", tc.f, d.Class, d.Retry, d.Reason, tc.class, tc.retry, tc.why)
			}
		})
	}
}

// TestClassifyStartFailures: a failure to start is permanent, except for
// the errors that may pass by themselves, which are retried; either way
// the attempt reports the shell's 126 or 127.
func TestClassifyStartFailures(t *testing.T) {
	forkExec := func(errno syscall.Errno) error {
		return &fs.PathError{Op: "fork/exec", Path: "./app", Err: errno}
	}
	for _, tc := range []struct {
		name  string
		err   error
		code  int
		class Class
		why   string
	}{
		{"ENOENT", forkExec(syscall.ENOENT), 127, Permanent, "cannot start: command not found"},
		{"not in PATH", &exec.Error{Name: "app", Err: exec.ErrNotFound}, 127, Permanent, "cannot start: command not found"},
		{"EACCES", forkExec(syscall.EACCES), 126, Permanent, "cannot start: permission denied"},
		{"EPERM", forkExec(syscall.EPERM), 126, Permanent, "cannot start: permission denied"},
		{"ENOEXEC", forkExec(syscall.ENOEXEC), 126, Permanent, "cannot start: fork/exec ./app: exec format error"},
		{"ENOTDIR", forkExec(syscall.ENOTDIR), 126, Permanent, "cannot start: fork/exec ./app: not a directory"},
		{"ELOOP", forkExec(syscall.ELOOP), 126, Permanent, "cannot start: fork/exec ./app: too many levels of symbolic links"},
		{"ENAMETOOLONG", forkExec(syscall.ENAMETOOLONG), 126, Permanent, "cannot start: fork/exec ./app: file name too long"},
		{"EISDIR", forkExec(syscall.EISDIR), 126, Permanent, "cannot start: fork/exec ./app: is a directory"},
		{"an error without errno", errors.New("odd"), 126, Permanent, "cannot start: odd"},
		{"ETXTBSY", forkExec(syscall.ETXTBSY), 126, Retryable, "cannot start: text file busy (may be transient)"},
		{"EAGAIN", forkExec(syscall.EAGAIN), 126, Retryable, "cannot start: resource temporarily unavailable (may be transient)"},
		{"ENOMEM", forkExec(syscall.ENOMEM), 126, Retryable, "cannot start: cannot allocate memory (may be transient)"},
		{"ENFILE", forkExec(syscall.ENFILE), 126, Retryable, "cannot start: too many open files in system (may be transient)"},
		{"EMFILE", forkExec(syscall.EMFILE), 126, Retryable, "cannot start: too many open files (may be transient)"},
		{"EINTR", forkExec(syscall.EINTR), 126, Retryable, "cannot start: interrupted system call (may be transient)"},
		{"EMFILE making a pipe", fmt.Errorf("starting: %w", os.NewSyscallError("pipe2", syscall.EMFILE)), 126, Retryable, "cannot start: too many open files (may be transient)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "ENOTDIR" && runtime.GOOS == "windows" {
				// Windows's ENOTDIR is ERROR_PATH_NOT_FOUND: a missing command.
				tc.code, tc.why = 127, "cannot start: command not found"
			}
			code := StartFailureCode(tc.err)
			d := (&Rules{}).Classify(Facts{Exit: exitcodes.Exit{StartErr: tc.err, ExitCode: code}})
			retry := tc.class == Retryable
			if code != tc.code || d.Class != tc.class || d.Retry != retry || d.Reason != tc.why {
				t.Errorf("%v: exit %d, %v, retry %v, %q; want exit %d, %v, retry %v, %q", tc.err, code, d.Class, d.Retry, d.Reason, tc.code, tc.class, retry, tc.why)
			}
			// The rules for started commands do not apply: it never ran.
			listed := Rules{StopOn: mustCodes(t, "126", ""), RetryOn: mustCodes(t, "75", "")}
			if d2 := listed.Classify(Facts{Exit: exitcodes.Exit{StartErr: tc.err, ExitCode: code}}); d2 != d {
				t.Errorf("with --stop-on 126 --retry-on 75: %+v; want %+v as without", d2, d)
			}
		})
	}
}

func TestStartFailureCode(t *testing.T) {
	for _, tc := range []struct {
		err  error
		want int
	}{
		{&exec.Error{Name: "x", Err: exec.ErrNotFound}, 127},
		{&fs.PathError{Err: syscall.ENOENT}, 127},
		{&fs.PathError{Err: syscall.EACCES}, 126},
		{&fs.PathError{Err: syscall.ENOEXEC}, 126},
		{errors.New("other"), 126},
	} {
		if got := StartFailureCode(tc.err); got != tc.want {
			t.Errorf("StartFailureCode(%v) = %d; want %d", tc.err, got, tc.want)
		}
	}
}

func TestClassString(t *testing.T) {
	for c, want := range map[Class]string{Success: "success", Retryable: "retryable", Permanent: "permanent", Ambiguous: "ambiguous", Failure: "failure", 9: "Class(9)"} {
		if got := fmt.Sprint(c); got != want {
			t.Errorf("%d.String() = %q; want %q", int(c), got, want)
		}
	}
}
