package runner

import (
	"syscall"
	"time"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/runner/classify"
)

// Outcome is how an operation ended.
type Outcome string

// The outcomes, as the JSON report spells them.
const (
	Succeeded Outcome = "succeeded"
	Permanent Outcome = "permanent"
	Exhausted Outcome = "exhausted"
	Deadline  Outcome = "deadline"
	Cancelled Outcome = "cancelled"
	Budget    Outcome = "budget"
	// Failed and Passed end an operation that runs until a failure
	// (Config.UntilFailure): a run failed, or none did before the
	// attempts or the deadline ran out.
	Failed Outcome = "failed"
	Passed Outcome = "passed"
)

// Attempt is the record of one attempt.
type Attempt struct {
	// Number counts attempts from 1.
	Number   int
	Started  time.Time
	Duration time.Duration
	// Exit is how the attempt ended.
	exitcodes.Exit
	Class  classify.Class
	Reason string
	// Advice, when not empty, tells how to let the rules decide: the
	// flag that shows the messages a preset could not see.
	Advice string
	// Hint is a server's requested wait, when HasHint.
	Hint    time.Duration
	HasHint bool
	// Delay is the wait after this attempt, when HasDelay.
	Delay    time.Duration
	HasDelay bool
	// BackoffReset: the attempt ran at least Config.Backoff.ResetAfter,
	// so the wait after it was drawn for retry index 0 instead of the
	// next one.
	BackoffReset bool
	// Hook is how Config.OnRetry ended after this attempt; nil when it
	// did not run.
	Hook *Hook
	// Stopped says why no attempt follows this one although its class
	// allowed one: the retry budget was empty, or its store failed.
	Stopped string
	// Cancelled, when not empty, says how the operation was cancelled
	// while this attempt ran, so that no other follows whatever its
	// class says: "cancelled by SIGTERM" (a signal retry received),
	// "interrupted at the terminal", "the terminal hung up".
	Cancelled string
	// Unstarted is the wait after this attempt that was not started
	// because it would have ended after the deadline, which was Left
	// away: the operation gave up then. HintPastDeadline: that wait was
	// a server's hint's.
	Unstarted        time.Duration
	HintPastDeadline bool
	Left             time.Duration
}

// A Result keeps the first KeepFirst and the last KeepLast attempts of an
// operation: a run of many attempts (a wait-for-service job that makes
// 86,400 a day) costs the same memory, and its report the same size,
// whatever their number.
const (
	KeepFirst = 100
	KeepLast  = 100
)

// Result is the record of a whole operation.
type Result struct {
	Outcome Outcome
	// Attempts are the attempts that started, in order: all of them, or,
	// when more than KeepFirst+KeepLast started, the first KeepFirst and
	// the last KeepLast.
	Attempts []Attempt
	// Total is how many attempts started; Omitted says how many of them
	// Attempts leaves out.
	Total   int
	Started time.Time
	Elapsed time.Duration
	// Deadline is the operation's deadline; zero when there was none.
	Deadline time.Time
	// IdempotencyKey is the key every attempt was given.
	IdempotencyKey string
	// Splay is the random wait before the first attempt, when Splayed
	// (Config.Splay).
	Splay   time.Duration
	Splayed bool
	// Signal is the signal that cancelled the operation when no attempt
	// was running (during a wait), when Outcome is Cancelled.
	Signal syscall.Signal
	// StoreOutage, when not nil, says that the budget's store failed.
	StoreOutage *StoreOutage
	// UntilFailure: the operation ran until a failure
	// (Config.UntilFailure); Passed counts its runs that succeeded.
	UntilFailure bool
	Passed       int
}

// Omitted returns how many attempts that started are not in Attempts.
func (r *Result) Omitted() int { return r.Total - len(r.Attempts) }

// add records the start of attempt n, the one after the last, and returns
// its record. Past KeepFirst+KeepLast attempts the oldest of the last ones
// makes room: at most KeepLast records move, however many attempts ran.
func (r *Result) add(n int) *Attempt {
	r.Total = n
	if len(r.Attempts) == KeepFirst+KeepLast {
		copy(r.Attempts[KeepFirst:], r.Attempts[KeepFirst+1:])
		r.Attempts[len(r.Attempts)-1] = Attempt{Number: n}
	} else {
		r.Attempts = append(r.Attempts, Attempt{Number: n})
	}
	return &r.Attempts[len(r.Attempts)-1]
}

// Last returns the last attempt, or nil when none ran.
func (r *Result) Last() *Attempt {
	if len(r.Attempts) == 0 {
		return nil
	}
	return &r.Attempts[len(r.Attempts)-1]
}
