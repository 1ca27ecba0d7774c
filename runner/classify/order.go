package classify

import (
	"fmt"
	"slices"
)

// Step is one step of the classification order: what it checks, and what
// it makes of an attempt it decides. Classify takes the steps of Order in
// turn, and the first that decides gives the Decision; the manual states
// the same order for users (docs/manual.md, "Classification").
type Step struct {
	// Number is the step's place in the order, from 1.
	Number int
	// Checks says what the step looks at, for a person.
	Checks string
	// Kind is the flag whose rules the step applies (--stop-if, --stop-on,
	// --retry-if, --retry-on, given by hand or by a preset), empty for a
	// built-in step.
	Kind RuleKind
	// Class is the class of an attempt the step decides; Then says when
	// it gives another.
	Class Class
	// Needs says what the step needs in the rules to decide at all, empty
	// when it always may.
	Needs string

	then   string                // what it makes of an attempt it decides
	thenOf func(r *Rules) string // in place of then, when that depends on r
	decide func(r *Rules, f Facts) (Decision, bool)
}

// Then says, for a person, what s makes of an attempt it decides under r.
func (s Step) Then(r *Rules) string {
	if s.thenOf != nil {
		return s.thenOf(r)
	}
	return s.then
}

// Applies reports whether s may decide under r: a step of a Kind needs a
// rule of that kind, and a step that Needs something needs it.
func (s Step) Applies(r *Rules) bool {
	switch s.Kind {
	case StopIf:
		return len(r.StopIf) > 0
	case StopOn:
		return len(r.StopOn) > 0
	case RetryIf:
		return len(r.RetryIf) > 0
	case RetryOn:
		return len(r.RetryOn) > 0
	}
	return s.Needs == "" || r.limited()
}

// Order returns the steps of the classification order, in the order
// Classify takes them.
func Order() []Step { return slices.Clone(order[:]) }

// order is the classification order. It holds only constants and
// functions, so that it is laid out when the program is built: neither
// start-up nor an attempt's Classify builds it.
var order = [...]Step{
	{Number: 1, Checks: "exit 0", Class: Success, then: "success, unless the attempt was cut by its timeout or the deadline", decide: (*Rules).exitZero},
	{Number: 2, Checks: "the command cannot be started", Class: Permanent, then: "permanent; retryable when the file is busy being written or the system is short of processes, memory or descriptors", decide: (*Rules).cannotStart},
	{Number: 3, Checks: "a --stop-if rule matched a line of the output", Kind: StopIf, Class: Permanent, then: "permanent", decide: (*Rules).stopIf},
	{Number: 4, Checks: "a --stop-on rule lists the exit code, or timeout for an attempt cut by its timeout or the deadline", Kind: StopOn, Class: Permanent, then: "permanent", decide: (*Rules).stopOn},
	{Number: 5, Checks: "a --retry-if rule matched a line of the output", Kind: RetryIf, Class: Retryable, then: "retryable", decide: (*Rules).retryIf},
	{Number: 6, Checks: "a --retry-on rule lists the exit code, or timeout for an attempt cut by its timeout or the deadline", Kind: RetryOn, Class: Retryable, then: "retryable", decide: (*Rules).retryOn},
	{Number: 7, Checks: "cut by its timeout or the deadline, or killed by a signal that retry neither sent nor forwarded", Class: Ambiguous, thenOf: (*Rules).ambiguousThen, decide: (*Rules).cutOrKilled},
	{Number: 8, Checks: "any other failure", Class: Permanent, Needs: "--retry-on or --retry-if rules are given",
		then: "permanent: --retry-on or --retry-if rules are given, and it matched none", decide: (*Rules).notListed},
	{Number: 9, Checks: "default", Class: Retryable, thenOf: (*Rules).defaultThen, decide: (*Rules).byDefault},
}

// Classify applies the classification order to f: the first step that
// decides gives the Decision.
func (r *Rules) Classify(f Facts) Decision {
	for i := range order {
		if d, ok := order[i].decide(r, f); ok {
			return d
		}
	}
	panic("classify: the default step decided nothing") // it always decides
}

// limited reports whether retrying was limited to what the rules list.
func (r *Rules) limited() bool { return len(r.RetryOn) > 0 || len(r.RetryIf) > 0 }

// exitZero is step 1. Success, unless cut by its timeout or the deadline
// (a job that exits 0 on the stop signal did not finish: as timeout(1)
// has it, the steps for a cut attempt decide, 4 and 6 by the word timeout,
// and step 7), or --fail-if matched the output: then a failure, retryable
// unless --stop-if matched too.
func (r *Rules) exitZero(f Facts) (Decision, bool) {
	if f.StartErr != nil || f.Signal != 0 || f.ExitCode != 0 {
		return Decision{}, false
	}
	m := f.Output.FailIf
	switch {
	case f.TimedOut:
		if d, ok := r.timeoutListed(r.StopOn, StopOn); ok {
			return d, true
		}
		if d, ok := r.timeoutListed(r.RetryOn, RetryOn); ok {
			return d, true
		}
		return r.ambiguous(f), true
	case m == nil:
		return Decision{Class: Success, Reason: "exit 0"}, true
	case f.Output.StopIf != nil:
		return Decision{Class: Permanent, Reason: "exit 0 but " + matchReason(m, FailIf) + ", and " + matchReason(f.Output.StopIf, StopIf)}, true
	}
	return Decision{Class: Retryable, Retry: true, Reason: "exit 0 but " + matchReason(m, FailIf)}, true
}

// cannotStart is step 2. The command cannot be started: permanent, unless
// what stopped it may pass (a binary still being written, no memory or
// process slot or descriptor left for the moment). It never ran, so
// another attempt is safe.
func (r *Rules) cannotStart(f Facts) (Decision, bool) {
	if f.StartErr == nil {
		return Decision{}, false
	}
	if errno, ok := transientStartError(f.StartErr); ok {
		return Decision{Class: Retryable, Retry: true, Reason: "cannot start: " + errno.Error() + " (may be transient)"}, true
	}
	return Decision{Class: Permanent, Reason: startReason(f.StartErr)}, true
}

// stopIf is step 3: --stop-if matched the output.
func (r *Rules) stopIf(f Facts) (Decision, bool) {
	if m := f.Output.StopIf; m != nil {
		return Decision{Class: Permanent, Reason: matchReason(m, StopIf)}, true
	}
	return Decision{}, false
}

// stopOn is step 4: --stop-on lists the exit code, or timeout and the
// attempt was cut by its timeout or the deadline. An exit code exists
// when no signal ended the attempt, even after a timeout.
func (r *Rules) stopOn(f Facts) (Decision, bool) {
	if d, ok := r.timeoutListed(r.StopOn, StopOn); f.TimedOut && ok {
		return d, true
	}
	if c, ok := findCode(r.StopOn, f.ExitCode); f.Signal == 0 && ok {
		return Decision{Class: Permanent, Reason: codeReason(f.ExitCode, c, StopOn)}, true
	}
	return Decision{}, false
}

// retryIf is step 5: --retry-if matched the output.
func (r *Rules) retryIf(f Facts) (Decision, bool) {
	if m := f.Output.RetryIf; m != nil {
		return Decision{Class: Retryable, Retry: true, Reason: matchReason(m, RetryIf)}, true
	}
	return Decision{}, false
}

// retryOn is step 6: --retry-on lists the exit code, or timeout and the
// attempt was cut by its timeout or the deadline.
func (r *Rules) retryOn(f Facts) (Decision, bool) {
	if d, ok := r.timeoutListed(r.RetryOn, RetryOn); f.TimedOut && ok {
		return d, true
	}
	if c, ok := findCode(r.RetryOn, f.ExitCode); f.Signal == 0 && ok {
		return Decision{Class: Retryable, Retry: true, Reason: codeReason(f.ExitCode, c, RetryOn)}, true
	}
	return Decision{}, false
}

// timeoutListed returns the decision of the first of rules, of kind
// (--stop-on or --retry-on), that lists the word timeout, for an attempt
// cut by its timeout or the deadline.
func (r *Rules) timeoutListed(rules []CodeRule, kind RuleKind) (Decision, bool) {
	for _, c := range rules {
		if !c.Codes.Timeout {
			continue
		}
		reason := "timed out: timeout is in " + string(kind)
		if c.From != "" {
			reason += " " + c.Codes.String() + " of " + c.From
		}
		if kind == StopOn {
			return Decision{Class: Permanent, Reason: reason}, true
		}
		return Decision{Class: Retryable, Retry: true, Reason: reason}, true
	}
	return Decision{}, false
}

// cutOrKilled is step 7: cut by its timeout or the deadline, or killed by
// a signal that retry neither sent nor forwarded.
func (r *Rules) cutOrKilled(f Facts) (Decision, bool) {
	if f.TimedOut || f.Signal != 0 && !f.SignalSent {
		return r.ambiguous(f), true
	}
	return Decision{}, false
}

// ambiguousThen is step 7's verdict, which --on-ambiguous chooses.
func (r *Rules) ambiguousThen() string {
	if r.StopOnAmbiguous {
		return "ambiguous: final (--on-ambiguous stop)"
	}
	return "ambiguous: retried (--on-ambiguous retry)"
}

// notListed is step 8: retrying was limited to what the rules list.
func (r *Rules) notListed(f Facts) (Decision, bool) {
	if !r.limited() {
		return Decision{}, false
	}
	d := Decision{Class: Permanent, Reason: fmt.Sprintf("not listed: %s matched no --retry-on or --retry-if rule", howEnded(f))}
	r.cannotSee(&d, f.Output)
	return d, true
}

// defaultThen is step 9's verdict, by the exit code.
func (r *Rules) defaultThen() string {
	return "permanent for exit " + DefaultPermanent().String() + "; retryable for any other failure"
}

// byDefault is step 9, the default. A death by a signal retry forwarded
// counts as the non-zero status 128+N a shell would report.
func (r *Rules) byDefault(f Facts) (Decision, bool) {
	if f.Signal != 0 {
		return Decision{Class: Retryable, Retry: true, Reason: fmt.Sprintf("default: %s may be transient", howEnded(f))}, true
	}
	if name, ok := permanentDefaults[f.ExitCode]; ok {
		return Decision{Class: Permanent, Reason: fmt.Sprintf("default: exit %d is permanent (%s)", f.ExitCode, name)}, true
	}
	return Decision{Class: Retryable, Retry: true, Reason: fmt.Sprintf("default: exit %d may be transient", f.ExitCode)}, true
}
