// Package proc is what retry asks of the system about processes and
// signals: an attempt's process group (started, signalled, waited for,
// watched, given the terminal), the shell that runs --on-retry, signal
// names, the signals retry forwards, and raising a signal on retry
// itself. It is internal: other Go programs cannot import it.
package proc

import (
	"fmt"
	"strconv"
	"strings"
	"syscall"
)

// SignalName returns the conventional name of sig, such as "SIGKILL", or
// "SIG" and its number for a signal without a name ("SIG40"): the one
// spelling of reasons, summaries and the report.
func SignalName(sig syscall.Signal) string {
	if name := signalName(sig); name != "" {
		return name
	}
	return "SIG" + strconv.Itoa(int(sig))
}

// ParseSignal reads a signal given by name ("TERM", "SIGTERM", "term") or
// by number ("15", or "SIG40" as SignalName spells a signal without a
// name).
func ParseSignal(s string) (syscall.Signal, error) {
	num := s
	if rest, ok := strings.CutPrefix(strings.ToUpper(s), "SIG"); ok && rest != "" && rest[0] >= '0' && rest[0] <= '9' {
		num = rest
	}
	if n, err := strconv.Atoi(num); err == nil {
		if n <= 0 || n > maxSignal {
			return 0, fmt.Errorf("must be a signal name or a number from 1 to %d, got %q", maxSignal, s)
		}
		return syscall.Signal(n), nil
	}
	name := strings.ToUpper(s)
	if !strings.HasPrefix(name, "SIG") {
		name = "SIG" + name
	}
	if sig := signalNum(name); sig != 0 {
		return sig, nil
	}
	return 0, fmt.Errorf("unknown signal %q", s)
}
