package cmd

import (
	"fmt"
	"strconv"
	"strings"
	"time"

	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/classify"
)

// A run with --until fail runs the command again while it succeeds: retry
// explain says so, and shows what ends the runs instead of the rules that
// decide about retrying.

// untilDeadlineLine is deadlineLine for a run with --until fail, whose
// deadline ends the runs without a failure.
func untilDeadlineLine(cfg runner.Config, steps []planStep, deadline, longest time.Duration) (string, *bool, *int) {
	if cfg.Deadline.IsZero() {
		return "none: only --attempts bounds the runs (--deadline DUR does too)", nil, nil
	}
	line := dur(deadline) + " ends the runs without a failure, exit 0 (a run it cuts short is not one)"
	per := cfg.Timeout
	if per == 0 || cfg.Attempts == 0 {
		return line, nil, nil
	}
	worst := addSat(longest, mulSat(per, cfg.Attempts))
	if worst <= deadline {
		return line + "; it holds all " + plural(cfg.Attempts, "run") + " of up to --timeout " + dur(per) + " and the waits between them: at most " + dur(worst), ptr(true), ptr(cfg.Attempts)
	}
	n, _ := startsWithin(steps, deadline, per, func(s planStep) time.Duration { return s.max })
	return line + "; with runs of the whole --timeout " + dur(per) + ", " + strconv.Itoa(n) + " of the " + strconv.Itoa(cfg.Attempts) + " runs start before it", ptr(false), &n
}

// untilRules lists what a run with --until fail makes of a run: step 1
// alone decides, with the --fail-if rules, and any run it does not call a
// success is the failure the runs stop at.
func untilRules(r *classify.Rules) []explainRule {
	rules := []explainRule{{Step: 1, Rule: "exit 0", Then: "success, unless the run was cut by its timeout: the next run starts", From: "built-in"}}
	for _, p := range r.FailIf {
		rule := explainRule{Step: 1, Rule: string(classify.FailIf) + " " + quoteWord(p.String()), Then: "failure: an exit 0 whose output matches", From: p.From}
		if rule.From == "" {
			rule.From = "command line"
		}
		rules = append(rules, rule)
	}
	return append(rules, explainRule{Step: 1, Rule: "any other run: non-zero, cut by its --timeout, killed, or not started", Then: "failure: the runs stop, and retry exits with its status", From: "built-in"})
}

// untilRulesText renders the rules of a run with --until fail.
func (x *explanation) untilRulesText(b *strings.Builder, r *classify.Rules) {
	b.WriteString("\nruns, until one fails (--until fail): rule 1 alone decides, and no failure is retried\n")
	for _, rule := range x.Rules {
		fmt.Fprintf(b, "  %s: %s (%s)\n", rule.Rule, rule.Then, rule.From)
	}
	b.WriteString("  a run that the deadline cuts short is no failure: the runs end without one\n")
	if len(r.FailIf) > 0 {
		fmt.Fprintf(b, "output rules read %s (--match %s)\n", matchWhat(r.Read), r.Read)
	}
}

// untilPlanText renders the plan of a run with --until fail.
func (x *explanation) untilPlanText(b *strings.Builder) {
	runs := "as many runs as the deadline allows"
	if x.Attempts > 0 {
		runs = "at most " + plural(x.Attempts, "run")
	}
	between := "one right after the other"
	if x.MaxDelay > 0 {
		between = ms(x.Delay) + " apart (--delay)"
	}
	fmt.Fprintf(b, "plan: run the command again while it succeeds, and stop at its first failure (--until fail): %s, %s\n", runs, between)
}
