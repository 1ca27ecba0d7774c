package runner

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"
)

// The variables each attempt finds in its environment.
const (
	EnvAttempt        = "RETRY_ATTEMPT"
	EnvMaxAttempts    = "RETRY_MAX_ATTEMPTS"
	EnvIdempotencyKey = "RETRY_IDEMPOTENCY_KEY"
	EnvDeadline       = "RETRY_DEADLINE"
	EnvDepth          = "RETRY_DEPTH"
)

// DeadlineLayout formats RETRY_DEADLINE: RFC 3339 in UTC with
// milliseconds.
const DeadlineLayout = "2006-01-02T15:04:05.000Z07:00"

// environment builds each attempt's environment: the base without any
// inherited RETRY_* variables of ours, then ours.
type environment struct {
	fixed []string // base plus the variables that do not change
}

func newEnvironment(base []string, attempts int, key string, deadline time.Time, depth int) environment {
	fixed := make([]string, 0, len(base)+5)
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		switch name {
		case EnvAttempt, EnvMaxAttempts, EnvIdempotencyKey, EnvDeadline, EnvDepth:
			continue
		}
		fixed = append(fixed, kv)
	}
	fixed = append(fixed,
		EnvMaxAttempts+"="+strconv.Itoa(attempts),
		EnvIdempotencyKey+"="+key,
		EnvDepth+"="+strconv.Itoa(depth),
	)
	if !deadline.IsZero() {
		fixed = append(fixed, EnvDeadline+"="+deadline.UTC().Format(DeadlineLayout))
	}
	return environment{fixed: fixed}
}

// cMessages returns env with the messages of every program in English
// (the C locale) and the rest of the locale as it was, for rules that read
// English messages: LC_MESSAGES=C, no LANGUAGE (GNU gettext's list of
// languages), and an LC_ALL other than C or POSIX moved to LANG, with the
// other LC_ variables it overrode dropped, so that each category but the
// messages resolves as before.
func cMessages(env []string) []string {
	all := ""
	for _, kv := range env {
		if v, ok := strings.CutPrefix(kv, "LC_ALL="); ok {
			all = v
		}
	}
	moved := all != "" && all != "C" && all != "POSIX"
	out := make([]string, 0, len(env)+1)
	for _, kv := range env {
		name, _, _ := strings.Cut(kv, "=")
		switch {
		case name == "LANGUAGE", name == "LC_MESSAGES":
			continue
		case moved && (name == "LANG" || strings.HasPrefix(name, "LC_")):
			continue
		}
		out = append(out, kv)
	}
	if moved {
		out = append(out, "LANG="+all)
	}
	return append(out, "LC_MESSAGES=C")
}

// forAttempt returns the environment of attempt n.
func (e environment) forAttempt(n int) []string {
	env := make([]string, len(e.fixed), len(e.fixed)+1)
	copy(env, e.fixed)
	return append(env, EnvAttempt+"="+strconv.Itoa(n))
}

// newUUID returns a random (version 4) UUID.
//
// The 122 random bits come from math/rand/v2's global generator: ChaCha8,
// seeded from the kernel's randomness when the process starts, which is
// all a key that must be unique per operation needs (it is no secret: every
// attempt sees it). crypto/rand would cost every run 0.1 to 0.2 ms of
// start-up (its first read sets up getrandom state and a 60 s watchdog
// timer that starts the network poller) and would link its FIPS module
// into the binary (docs/benchmarks.md, "Start-up overhead").
func newUUID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
