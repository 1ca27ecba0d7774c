package cmd

import (
	"fmt"
	"strings"
	"time"

	"github.com/b0a38808/retry/runner/classify"
)

// explainRule is one rule of the classification order, as retry explain
// shows it. Step is the rule's place in SPEC.md's order (1 to 9).
type explainRule struct {
	Step   int    `json:"step"`
	Rule   string `json:"rule"`
	Then   string `json:"then"`
	From   string `json:"from"` // "built-in", "command line" or "preset NAME"
	Why    string `json:"why,omitempty"`
	Source string `json:"source,omitempty"`
}

// ruleSteps names steps 3 to 6, the ones the flags and presets fill.
var ruleSteps = []struct {
	step int
	kind classify.RuleKind
	then string
}{
	{3, classify.StopIf, "permanent"},
	{4, classify.StopOn, "permanent"},
	{5, classify.RetryIf, "retryable"},
	{6, classify.RetryOn, "retryable"},
}

// explainRules lists the rules of r in the order Classify applies them:
// r's own lists, in their order, with each preset rule's reason and source
// looked up in its preset.
func explainRules(r *classify.Rules, onAmbiguous string) []explainRule {
	rules := []explainRule{
		{Step: 1, Rule: "exit 0", Then: "success, unless the attempt was cut by its timeout or the deadline", From: "built-in"},
		{Step: 2, Rule: "the command cannot be started", Then: "permanent; retryable when the file is busy being written or the system is short of processes, memory or descriptors", From: "built-in"},
	}
	for _, s := range ruleSteps {
		var values, froms []string
		switch s.kind {
		case classify.StopIf, classify.RetryIf:
			pats := r.StopIf
			if s.kind == classify.RetryIf {
				pats = r.RetryIf
			}
			for _, p := range pats {
				values, froms = append(values, p.String()), append(froms, p.From)
			}
		default:
			codes := r.StopOn
			if s.kind == classify.RetryOn {
				codes = r.RetryOn
			}
			for _, c := range codes {
				values, froms = append(values, c.Codes.String()), append(froms, c.From)
			}
		}
		for i, v := range values {
			rule := explainRule{Step: s.step, Rule: string(s.kind) + " " + v, Then: s.then, From: froms[i]}
			if s.kind == classify.StopIf || s.kind == classify.RetryIf {
				rule.Rule = string(s.kind) + " " + quoteWord(v)
			}
			if froms[i] == "" {
				rule.From = "command line"
			} else if pr, ok := presetRule(froms[i], s.kind, v); ok {
				rule.Why, rule.Source = pr.Why, pr.Source
			}
			rules = append(rules, rule)
		}
	}
	ambiguous := "ambiguous: retried (--on-ambiguous retry)"
	if onAmbiguous == "stop" {
		ambiguous = "ambiguous: final (--on-ambiguous stop)"
	}
	rules = append(rules, explainRule{Step: 7, Rule: "cut by its timeout or the deadline, or killed by a signal that retry neither sent nor forwarded", Then: ambiguous, From: "built-in"})
	if len(r.RetryOn) > 0 || len(r.RetryIf) > 0 {
		rules = append(rules, explainRule{Step: 8, Rule: "any other failure", Then: "permanent: --retry-on or --retry-if rules are given, and it matched none", From: "built-in"})
	}
	rules = append(rules, explainRule{Step: 9, Rule: "default", Then: "permanent for exit " + classify.DefaultPermanent().String() + "; retryable for any other failure", From: "built-in"})
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
	ms := func(v float64) string { return dur(time.Duration(v * float64(time.Millisecond))) }
	attempts := "unlimited attempts"
	if x.Attempts > 0 {
		attempts = plural(x.Attempts, "attempt")
	}
	fmt.Fprintf(&b, "plan: %s; waits from --delay %s doubling up to --max-delay %s, %s jitter\n", attempts, ms(x.Delay), ms(x.MaxDelay), x.Jitter)
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
			fmt.Fprintf(&b, "  %s, the last\n", which)
		case *s.WaitMaxMS == 0:
			fmt.Fprintf(&b, "  %s, then no wait\n", which)
		case *s.WaitMinMS == *s.WaitMaxMS:
			fmt.Fprintf(&b, "  %s, then a wait of %s%s\n", which, ms(*s.WaitMaxMS), each)
		default:
			fmt.Fprintf(&b, "  %s, then a wait of %s to %s%s\n", which, ms(*s.WaitMinMS), ms(*s.WaitMaxMS), each)
		}
	}
	if x.ResetAfter != nil {
		fmt.Fprintf(&b, "backoff reset: an attempt that runs at least %s before it fails (--reset-after) starts the waits over from the first one's; the bounds above are the longest\n", ms(*x.ResetAfter))
	}
	if h := x.OnRetry; h != nil {
		then := "its failure is said and passed over (--on-retry-fail continue)"
		if h.OnFail == "stop" {
			then = "its failure ends the operation, outcome permanent (--on-retry-fail stop)"
		}
		fmt.Fprintf(&b, "between attempts: /bin/sh -c %s (--on-retry) after each failed attempt that another follows, before the wait, bounded by the deadline; %s; its time is not in the totals below\n", shellQuote([]string{h.Command}), then)
	}
	if x.TimeoutMS != nil {
		fmt.Fprintf(&b, "each attempt: at most %s (--timeout), then the stop signal, and SIGKILL %s later if it is still running\n", ms(*x.TimeoutMS), ms(x.KillAfterMS))
	} else {
		fmt.Fprintf(&b, "each attempt: as long as it takes (no --timeout)\n")
	}
	if x.WaitsMaxMS != nil {
		fmt.Fprintf(&b, "waits: at most %s in all, median %s\n", ms(*x.WaitsMaxMS), ms(*x.WaitsMedMS))
		worst := "unbounded: the attempts' own time, plus up to " + ms(*x.WaitsMaxMS) + " of waits"
		if x.TimeoutMS != nil {
			worst = ms(*x.TimeoutMS*float64(x.Attempts)+*x.WaitsMaxMS) + " (" + plural(x.Attempts, "attempt") + " of up to " + ms(*x.TimeoutMS) + ", and the longest waits)"
		}
		if x.DeadlineMS != nil && *x.WorstMS == *x.DeadlineMS {
			worst = ms(*x.DeadlineMS) + ": the deadline ends it"
		}
		fmt.Fprintf(&b, "total time: worst case %s; median %s of waits, plus the attempts' own time\n", worst, ms(*x.WaitsMedMS))
	} else {
		fmt.Fprintf(&b, "total time: at most the deadline, %s\n", ms(*x.DeadlineMS))
	}
	fmt.Fprintf(&b, "deadline: %s\n", x.Deadline)
	for _, n := range x.Notes {
		fmt.Fprintf(&b, "note: %s\n", n)
	}

	b.WriteString("\nrules, in the order they apply (the first that matches decides):\n")
	step := 0
	for _, rule := range x.Rules {
		for step+1 < rule.Step {
			step++
			for _, s := range ruleSteps {
				if s.step == step {
					fmt.Fprintf(&b, "  %d. %s: none\n", step, s.kind)
				}
			}
			if step == 8 {
				b.WriteString("  8. any other failure is permanent only when --retry-on or --retry-if rules are given: none are\n")
			}
		}
		step = rule.Step
		fmt.Fprintf(&b, "  %d. %s: %s (%s)\n", rule.Step, rule.Rule, rule.Then, rule.From)
		if rule.Why != "" {
			fmt.Fprintf(&b, "       why: %s\n       source: %s\n", rule.Why, rule.Source)
		}
	}
	fmt.Fprintf(&b, "output rules read %s (--match %s); %s\n", matchWhat(r.Read), r.Read, hintsWhat(r))

	if v := x.Result; v != nil {
		lines := ""
		if len(v.Output) > 0 {
			lines = " after printing " + plural(len(v.Output), "line")
		}
		fmt.Fprintf(&b, "\nan attempt that exits %d%s: %s: %s\n", v.ExitCode, lines, v.Class, v.Reason)
		switch {
		case v.Class == "success":
			b.WriteString("  a run would end here, succeeded\n")
		case v.Retry:
			b.WriteString("  a run would start another attempt, when one is left and the deadline allows it\n")
		default:
			b.WriteString("  a run would stop here and exit with its code\n")
		}
		if v.Hint != "" {
			fmt.Fprintf(&b, "  %s: the wait after it is at least %s\n", v.Hint, dur(time.Duration(*v.HintMS*float64(time.Millisecond))))
		}
	}
	return b.String()
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
