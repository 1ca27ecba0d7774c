package classify

import (
	"errors"
	"fmt"
	"io/fs"
	"os/exec"
	"syscall"
	"testing"
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
		{"not found", Rules{}, Facts{StartErr: notFound, ExitCode: 127}, Permanent, false, "cannot start: command not found"},
		{"not executable", Rules{}, Facts{StartErr: denied, ExitCode: 126}, Permanent, false, "cannot start: permission denied"},
		{"exit 1", Rules{}, Facts{ExitCode: 1}, Retryable, true, "default: exit 1 may be transient"},
		{"exit 75", Rules{}, Facts{ExitCode: 75}, Retryable, true, "default: exit 75 may be transient"},
		{"exit 64", Rules{}, Facts{ExitCode: 64}, Permanent, false, "default: exit 64 is permanent (EX_USAGE)"},
		{"exit 78", Rules{}, Facts{ExitCode: 78}, Permanent, false, "default: exit 78 is permanent (EX_CONFIG)"},
		{"exit 126 from a shell", Rules{}, Facts{ExitCode: 126}, Permanent, false, "default: exit 126 is permanent (cannot execute)"},
		{"exit 127 from a shell", Rules{}, Facts{ExitCode: 127}, Permanent, false, "default: exit 127 is permanent (command not found)"},
		{"timed out", Rules{}, Facts{TimedOut: true, Signal: syscall.SIGTERM}, Ambiguous, true, "timed out: may have committed an effect"},
		{"killed", Rules{}, Facts{Signal: syscall.SIGKILL}, Ambiguous, true, "killed by SIGKILL: may have committed an effect"},
		{"ambiguous stop", Rules{StopOnAmbiguous: true}, Facts{Signal: syscall.SIGKILL}, Ambiguous, false, "killed by SIGKILL: may have committed an effect, --on-ambiguous stop"},
		{"timeout that exited 0 still succeeded", Rules{}, Facts{TimedOut: true}, Success, false, "exit 0"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.rules.Classify(tc.f)
			if d.Class != tc.class || d.Retry != tc.retry || d.Reason != tc.why {
				t.Errorf("Classify(%+v) = %v, %v, %q; want %v, %v, %q", tc.f, d.Class, d.Retry, d.Reason, tc.class, tc.retry, tc.why)
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
	for c, want := range map[Class]string{Success: "success", Retryable: "retryable", Permanent: "permanent", Ambiguous: "ambiguous", 9: "Class(9)"} {
		if got := fmt.Sprint(c); got != want {
			t.Errorf("%d.String() = %q; want %q", int(c), got, want)
		}
	}
}
