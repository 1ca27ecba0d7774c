package proc

import (
	"testing"
)

// FuzzParseSignal checks that any --stop-signal value parses without a
// panic to a signal in range, and that a known signal's name reads back
// as the same signal.
func FuzzParseSignal(f *testing.F) {
	for _, s := range []string{"TERM", "SIGTERM", "term", "15", "9", "0", "-1", "65", "999999999999999999999", "SIG", "", "KILL", "sigint", "SIGRTMIN"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		sig, err := ParseSignal(s)
		if err != nil {
			return
		}
		if sig <= 0 || int(sig) > maxSignal {
			t.Fatalf("ParseSignal(%q) = %d, out of 1-%d", s, sig, maxSignal)
		}
		name := SignalName(sig)
		back, err := ParseSignal(name)
		if err != nil && name[:3] == "SIG" {
			t.Fatalf("SignalName(%d) = %q does not parse: %v", sig, name, err)
		}
		if err == nil && back != sig {
			t.Fatalf("ParseSignal(SignalName(%d) = %q) = %d", sig, name, back)
		}
	})
}
