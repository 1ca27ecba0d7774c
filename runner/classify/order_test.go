package classify

import (
	"testing"

	"github.com/b0a38808/retry/exitcodes"
)

// TestOrder: the steps are numbered from 1 in turn, each kind of rule has
// one step, and each step's Class is what it decides on an attempt made
// for it.
func TestOrder(t *testing.T) {
	r := &Rules{RetryOn: mustCodes(t, "75", ""), StopOn: mustCodes(t, "3", "")}
	for i, s := range Order() {
		if s.Number != i+1 || s.Checks == "" || s.Then(r) == "" {
			t.Errorf("step %d: number %d, checks %q, then %q", i+1, s.Number, s.Checks, s.Then(r))
		}
	}
	kinds := map[RuleKind]int{}
	for _, s := range Order() {
		if s.Kind != "" {
			kinds[s.Kind]++
		}
	}
	for _, k := range []RuleKind{StopIf, StopOn, RetryIf, RetryOn} {
		if kinds[k] != 1 {
			t.Errorf("%s has %d steps, want 1", k, kinds[k])
		}
	}
	// An attempt that only the step decides, by its number.
	facts := map[int]Facts{
		1: {},
		2: {Exit: exitcodes.Exit{StartErr: ErrNoInterpreter}},
		4: {Exit: exitcodes.Exit{ExitCode: 3}},
		6: {Exit: exitcodes.Exit{ExitCode: 75}},
		7: {Exit: exitcodes.Exit{ExitCode: 1, TimedOut: true}},
		8: {Exit: exitcodes.Exit{ExitCode: 1}},
	}
	for _, s := range Order() {
		f, ok := facts[s.Number]
		if !ok {
			continue
		}
		if d, ok := s.decide(r, f); !ok || d.Class != s.Class {
			t.Errorf("step %d on %+v: %v %v, want %v", s.Number, f, d.Class, ok, s.Class)
		}
		if got := r.Classify(f); got.Class != s.Class {
			t.Errorf("Classify(%+v) = %v, want step %d's %v", f, got.Class, s.Number, s.Class)
		}
	}
	if !Order()[7].Applies(r) || Order()[7].Applies(&Rules{}) {
		t.Error("step 8 must apply with --retry-on rules and only then")
	}
}
