package runner

import (
	"encoding/binary"
	"fmt"
	"math/rand/v2"
	"strconv"
	"strings"
	"time"

	"github.com/b0a38808/retry/internal/proc"
)

// The variables each attempt finds in its environment.
const (
	EnvAttempt        = "RETRY_ATTEMPT"
	EnvMaxAttempts    = "RETRY_MAX_ATTEMPTS"
	EnvIdempotencyKey = "RETRY_IDEMPOTENCY_KEY"
	EnvDeadline       = "RETRY_DEADLINE"
	EnvDepth          = "RETRY_DEPTH"
	// EnvSlot lists the concurrency slots the attempt runs in, its own
	// and its enclosing attempts', each NAME@SCOPE (SlotID), separated
	// by spaces. A nested retry of one of those budgets runs in its slot.
	EnvSlot = "RETRY_SLOT"
)

// The variables the --on-retry command finds too: how the attempt before
// it ended (RETRY_EXIT_CODE, or RETRY_SIGNAL when it died from a signal)
// and its class.
const (
	EnvExitCode = "RETRY_EXIT_CODE"
	EnvSignal   = "RETRY_SIGNAL"
	EnvClass    = "RETRY_CLASS"
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
		case EnvAttempt, EnvMaxAttempts, EnvIdempotencyKey, EnvDeadline, EnvDepth, EnvSlot, EnvExitCode, EnvSignal, EnvClass:
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

// ReadDepth reads RETRY_DEPTH as an enclosing retry sets it (getenv reads
// the environment): how many retry operations enclose this one, for
// Config.Depth; 0 when it is not set or not a count.
func ReadDepth(getenv func(string) string) int {
	n, err := strconv.Atoi(getenv(EnvDepth))
	if err != nil || n < 0 {
		return 0
	}
	return n
}

// Nest applies to cfg what an enclosing retry passed down, when cfg.Depth
// says there is one: its deadline (RETRY_DEADLINE) bounds cfg's; its
// idempotency key (RETRY_IDEMPOTENCY_KEY) is cfg's unless cfg has its own,
// so that a retried outer attempt does not look like a new request; the
// slots the enclosing attempts run in (RETRY_SLOT) are cfg.EnclosingSlots;
// and, unless retryHere, cfg makes a single attempt, as the outer retry does
// the retrying. It reports whether it cut cfg's attempts to one. A
// deadline, key or slot left in the environment by hand, without RETRY_DEPTH,
// is not this operation's and is ignored.
func Nest(cfg *Config, getenv func(string) string, retryHere bool) (single bool, err error) {
	if cfg.Depth < 1 {
		return false, nil
	}
	if outer, ok, err := outerDeadline(getenv(EnvDeadline)); err != nil {
		return false, fmt.Errorf("%s: %w", EnvDeadline, err)
	} else if ok && (cfg.Deadline.IsZero() || outer.Before(cfg.Deadline)) {
		cfg.Deadline = outer
	}
	if key := getenv(EnvIdempotencyKey); cfg.IdempotencyKey == "" && key != "" {
		cfg.IdempotencyKey = key
	}
	cfg.EnclosingSlots = strings.Fields(getenv(EnvSlot))
	if retryHere || cfg.Attempts == 1 {
		return false, nil
	}
	cfg.Attempts = 1
	return true, nil
}

// outerDeadline parses RETRY_DEADLINE as an enclosing retry sets it
// (DeadlineLayout; any RFC 3339 time is taken). ok is false when it is
// not set.
func outerDeadline(s string) (t time.Time, ok bool, err error) {
	if s == "" {
		return time.Time{}, false, nil
	}
	t, err = time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, false, fmt.Errorf("must be an RFC 3339 time such as 2026-11-30T07:00:30.000Z, got %q", s)
	}
	return t, true, nil
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

// forAttempt returns the environment of attempt n, with slots as its
// RETRY_SLOT (empty: none).
func (e environment) forAttempt(n int, slots string) []string {
	env := make([]string, len(e.fixed), len(e.fixed)+2)
	copy(env, e.fixed)
	env = append(env, EnvAttempt+"="+strconv.Itoa(n))
	if slots != "" {
		env = append(env, EnvSlot+"="+slots)
	}
	return env
}

// forHook returns the environment of the --on-retry command run after
// the failed attempt a: a's own, and how a ended. The attempt's slots
// are not the command's: the attempt has ended.
func (e environment) forHook(a *Attempt) []string {
	env := append(e.forAttempt(a.Number, ""), EnvClass+"="+a.Class.String())
	if a.Signal != 0 {
		return append(env, EnvSignal+"="+proc.SignalName(a.Signal))
	}
	return append(env, EnvExitCode+"="+strconv.Itoa(a.ExitCode))
}

// newUUID returns a random (version 4) UUID. Its bits come from
// math/rand/v2's global generator (ChaCha8, seeded by the kernel): a key
// must be unique, not secret, and crypto/rand slows start-up
// (docs/dev/performance.md, "Where the time goes").
func newUUID() string {
	var b [16]byte
	binary.LittleEndian.PutUint64(b[:8], rand.Uint64())
	binary.LittleEndian.PutUint64(b[8:], rand.Uint64())
	b[6] = b[6]&0x0f | 0x40
	b[8] = b[8]&0x3f | 0x80
	return fmt.Sprintf("%x-%x-%x-%x-%x", b[0:4], b[4:6], b[6:8], b[8:10], b[10:16])
}
