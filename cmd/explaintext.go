package cmd

import (
	"fmt"
	"strings"
	"time"

	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/runner/classify"
)

// explainRule is one rule of the classification order, as retry explain
// shows it. Step is the number of the classify.Step that applies it.
type explainRule struct {
	Step   int    `json:"step"`
	Rule   string `json:"rule"`
	Then   string `json:"then"`
	From   string `json:"from"` // "built-in", "command line" or "preset NAME"
	Why    string `json:"why,omitempty"`
	Source string `json:"source,omitempty"`
}

// explainRules lists the rules of r in the order Classify applies them:
// each built-in step that applies, and for a step of a kind r's own rules
// of that kind, in their order, with each preset rule's reason and source
// looked up in its preset.
func explainRules(r *classify.Rules) []explainRule {
	var rules []explainRule
	for _, s := range classify.Order() {
		if s.Kind == "" {
			if s.Applies(r) {
				rules = append(rules, explainRule{Step: s.Number, Rule: s.Checks, Then: s.Then(r), From: "built-in"})
			}
			continue
		}
		for _, v := range rulesOf(r, s.Kind) {
			rule := explainRule{Step: s.Number, Rule: string(s.Kind) + " " + v.value, Then: s.Then(r), From: v.from}
			if v.timeout {
				rule.Then += "; timeout: an attempt cut by its timeout or the deadline, whatever it exited with"
			}
			if s.Kind == classify.StopIf || s.Kind == classify.RetryIf {
				rule.Rule = string(s.Kind) + " " + quoteWord(v.value)
			}
			if v.from == "" {
				rule.From = "command line"
			} else if pr, ok := presetRule(v.from, s.Kind, v.value); ok {
				rule.Why, rule.Source = pr.Why, pr.Source
			}
			rules = append(rules, rule)
		}
	}
	return rules
}

// givenRule is one rule of r as given: its value, and where from;
// timeout says that a code list holds the word timeout.
type givenRule struct {
	value, from string
	timeout     bool
}

// rulesOf returns r's rules of kind, in their order.
func rulesOf(r *classify.Rules, kind classify.RuleKind) []givenRule {
	var rules []givenRule
	switch kind {
	case classify.StopIf, classify.RetryIf:
		pats := r.StopIf
		if kind == classify.RetryIf {
			pats = r.RetryIf
		}
		for _, p := range pats {
			rules = append(rules, givenRule{value: p.String(), from: p.From})
		}
	case classify.StopOn, classify.RetryOn:
		codes := r.StopOn
		if kind == classify.RetryOn {
			codes = r.RetryOn
		}
		for _, c := range codes {
			rules = append(rules, givenRule{value: c.Codes.String(), from: c.From, timeout: c.Codes.Timeout})
		}
	}
	return rules
}

// presetRule finds the rule of kind and value in the preset that from
// ("preset NAME") names.
func presetRule(from string, kind classify.RuleKind, value string) (classify.PresetRule, bool) {
	p, err := classify.LookupPreset(strings.TrimPrefix(from, "preset "))
	if err != nil {
		return classify.PresetRule{}, false
	}
	for _, pr := range p.Rules {
		if pr.Kind != kind {
			continue
		}
		v := pr.Value
		if kind == classify.StopOn || kind == classify.RetryOn {
			if c, err := classify.ParseCodes(v); err == nil {
				v = c.String()
			}
		}
		if v == value {
			return pr, true
		}
	}
	return classify.PresetRule{}, false
}

// text renders the explanation for a person.
func (x *explanation) text(r *classify.Rules) string {
	var b strings.Builder
	fmt.Fprintf(&b, "retry explain: %s (name %s)\n\n", shellQuote(x.Command), x.Name)
	if x.Until != "" {
		x.untilPlanText(&b)
	} else {
		x.planText(&b)
	}
	x.timesText(&b)
	for _, n := range x.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}
	if x.Until != "" {
		x.untilRulesText(&b, r)
	} else {
		x.rulesText(&b, r)
	}
	x.resultText(&b)
	return b.String()
}

// ms renders v milliseconds as a duration.
func ms(v float64) string { return dur(time.Duration(v * float64(time.Millisecond))) }

// planText renders the attempts, the waits after each, and what runs
// between them.
func (x *explanation) planText(b *strings.Builder) {
	attempts := "unlimited attempts"
	if x.Attempts > 0 {
		attempts = plural(x.Attempts, "attempt")
	}
	fmt.Fprintf(b, "plan: %s; waits from --delay %s doubling up to --max-delay %s, %s jitter\n", attempts, ms(x.Delay), ms(x.MaxDelay), x.Jitter)
	if x.SplayMS != nil {
		fmt.Fprintf(b, "  before attempt 1, a random wait of 0s to %s (--splay), counted against the deadline\n", ms(*x.SplayMS))
	}
	for _, s := range x.Plan {
		which := fmt.Sprintf("attempt %d", s.First)
		switch {
		case s.Last == 0:
			which = fmt.Sprintf("attempt %d and every later one", s.First)
		case s.Last > s.First:
			which = fmt.Sprintf("attempts %d-%d", s.First, s.Last)
		}
		each := ""
		if s.Last != s.First {
			each = " after each"
		}
		switch {
		case s.WaitMaxMS == nil:
			fmt.Fprintf(b, "  %s, the last\n", which)
		case *s.WaitMaxMS == 0:
			fmt.Fprintf(b, "  %s, then no wait\n", which)
		case *s.WaitMinMS == *s.WaitMaxMS:
			fmt.Fprintf(b, "  %s, then a wait of %s%s\n", which, ms(*s.WaitMaxMS), each)
		default:
			fmt.Fprintf(b, "  %s, then a wait of %s to %s%s\n", which, ms(*s.WaitMinMS), ms(*s.WaitMaxMS), each)
		}
	}
	if x.ResetAfter != nil {
		fmt.Fprintf(b, "backoff reset: an attempt that runs at least %s before it fails (--reset-after) starts the waits over from the first one's; the bounds above are the longest\n", ms(*x.ResetAfter))
	}
	if h := x.OnRetry; h != nil {
		then := "its failure is said and passed over (--on-retry-fail continue)"
		if h.OnFail == "stop" {
			then = "its failure ends the operation, outcome permanent (--on-retry-fail stop)"
		}
		fmt.Fprintf(b, "between attempts: %s %s (--on-retry) after each failed attempt that another follows, before the wait, bounded by the deadline; %s; its time is not in the totals below\n", proc.ShellName, shellQuote([]string{h.Command}), then)
	}
}

// timesText renders how long each attempt, the waits and the whole
// operation may take, and the deadline.
func (x *explanation) timesText(b *strings.Builder) {
	if x.TimeoutMS != nil {
		fmt.Fprintf(b, "each attempt: at most %s (--timeout), then the stop signal, and SIGKILL %s later if it is still running\n", ms(*x.TimeoutMS), ms(x.KillAfterMS))
	} else {
		fmt.Fprintf(b, "each attempt: as long as it takes (no --timeout)\n")
	}
	if x.WaitsMaxMS != nil {
		waits := "waits"
		if x.SplayMS != nil {
			waits = "waits, the splay included"
		}
		fmt.Fprintf(b, "%s: at most %s in all, median %s\n", waits, ms(*x.WaitsMaxMS), ms(*x.WaitsMedMS))
		worst := "unbounded: the attempts' own time, plus up to " + ms(*x.WaitsMaxMS) + " of waits"
		if x.TimeoutMS != nil {
			worst = ms(*x.TimeoutMS*float64(x.Attempts)+*x.WaitsMaxMS) + " (" + plural(x.Attempts, "attempt") + " of up to " + ms(*x.TimeoutMS) + ", and the longest waits)"
		}
		if x.DeadlineMS != nil && *x.WorstMS == *x.DeadlineMS {
			worst = ms(*x.DeadlineMS) + ": the deadline ends it"
		}
		fmt.Fprintf(b, "total time: worst case %s; median %s of waits, plus the attempts' own time\n", worst, ms(*x.WaitsMedMS))
	} else {
		fmt.Fprintf(b, "total time: at most the deadline, %s\n", ms(*x.DeadlineMS))
	}
	fmt.Fprintf(b, "deadline: %s\n", x.Deadline)
}

// resultText renders the decision on the attempt --exit-code describes,
// when there is one.
func (x *explanation) resultText(b *strings.Builder) {
	v := x.Result
	if v == nil {
		return
	}
	lines := ""
	if len(v.Output) > 0 {
		lines = " after printing " + plural(len(v.Output), "line")
	}
	ended := fmt.Sprintf("that exits %d", v.exitCode())
	if v.TimedOut {
		ended = "cut by its timeout (" + v.Signal + ")"
	}
	what := "an attempt"
	if x.Until != "" {
		what = "a run"
	}
	fmt.Fprintf(b, "\n%s %s%s: %s: %s\n", what, ended, lines, v.Class, v.Reason)
	switch {
	case x.Until != "" && v.Class == "success":
		b.WriteString("  the next run would start, when one is left and the deadline allows it\n")
	case x.Until != "":
		b.WriteString("  the runs would stop here, and retry exit with its status\n")
	case v.Class == "success":
		b.WriteString("  a run would end here, succeeded\n")
	case v.Retry:
		b.WriteString("  a run would start another attempt, when one is left and the deadline allows it\n")
	default:
		b.WriteString("  a run would stop here and exit with its code\n")
	}
	if v.Hint != "" {
		fmt.Fprintf(b, "  %s: the wait after it is at least %s\n", v.Hint, dur(time.Duration(*v.HintMS*float64(time.Millisecond))))
	}
}

// rulesText renders x.Rules under each step of the classification order,
// saying so of a step that has none, and which output the rules read.
func (x *explanation) rulesText(b *strings.Builder, r *classify.Rules) {
	b.WriteString("\nrules, in the order they apply (the first that matches decides):\n")
	for _, s := range classify.Order() {
		n := 0
		for _, rule := range x.Rules {
			if rule.Step != s.Number {
				continue
			}
			n++
			fmt.Fprintf(b, "  %d. %s: %s (%s)\n", rule.Step, rule.Rule, rule.Then, rule.From)
			if rule.Why != "" {
				fmt.Fprintf(b, "       why: %s\n       source: %s\n", rule.Why, rule.Source)
			}
		}
		switch {
		case n > 0:
		case s.Kind != "":
			fmt.Fprintf(b, "  %d. %s: none\n", s.Number, s.Kind)
		case s.Needs != "":
			fmt.Fprintf(b, "  %d. %s is %s only when %s: none are\n", s.Number, s.Checks, s.Class, s.Needs)
		}
	}
	fmt.Fprintf(b, "output rules read %s (--match %s); %s\n", matchWhat(r.Read), r.Read, hintsWhat(r))
}

func matchWhat(s classify.StreamChoice) string {
	if s == classify.MatchBoth {
		return "stdout and stderr"
	}
	return s.String()
}

// hintsWhat says which server hints the rules read.
func hintsWhat(r *classify.Rules) string {
	switch {
	case !r.Hints:
		return "server hints: off (--no-hints)"
	case r.HintPattern != nil:
		return fmt.Sprintf("server hints: lines matching --hint-pattern %s, trusted up to --max-hint %s", quoteWord(r.HintPattern.String()), dur(r.MaxHint))
	}
	return fmt.Sprintf("server hints: Retry-After lines, trusted up to --max-hint %s", dur(r.MaxHint))
}
