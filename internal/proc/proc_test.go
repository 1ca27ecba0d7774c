package proc

import (
	"strings"
	"syscall"
	"testing"
)

func TestParseSignal(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want syscall.Signal
		ok   bool
	}{
		{"TERM", syscall.SIGTERM, true},
		{"SIGTERM", syscall.SIGTERM, true},
		{"term", syscall.SIGTERM, true},
		{"sigkill", syscall.SIGKILL, true},
		{"9", syscall.SIGKILL, true},
		{"15", syscall.SIGTERM, true},
		{"0", 0, false},
		{"-1", 0, false},
		{"1000", 0, false},
		{"NOPE", 0, false},
		{"", 0, false},
	} {
		got, err := ParseSignal(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseSignal(%q) = %v, %v; want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// A signal without a name reads the same in reasons, summaries and the
// report (whose schema wants a SIG name).
func TestSignalNameWithoutName(t *testing.T) {
	if got := SignalName(syscall.Signal(77)); !strings.HasPrefix(got, "SIG") {
		t.Errorf("SignalName(77) = %q, want a SIG name", got)
	}
}

func TestSignalName(t *testing.T) {
	for sig, want := range map[syscall.Signal]string{
		syscall.SIGKILL: "SIGKILL",
		syscall.SIGTERM: "SIGTERM",
		syscall.SIGINT:  "SIGINT",
	} {
		if got := SignalName(sig); got != want {
			t.Errorf("SignalName(%d) = %q; want %q", sig, got, want)
		}
	}
}
