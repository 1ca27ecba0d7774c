package cmd

import (
	"context"
	"fmt"
	"io"
	"os"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/ci"
	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/classify"
)

// ciRun is what retry writes under a CI system in one run; what each
// system writes is internal/ci's. The zero ciRun is a run outside CI.
type ciRun struct {
	system      ci.System    // nil outside CI, or under --ci none
	given       bool         // --ci named it
	groups      ci.Groups    // --ci-groups
	annotator   ci.Annotator // nil when the system has none, or --ci-annotations none
	stepSummary string       // GitHub's $GITHUB_STEP_SUMMARY: a file the summary is appended to
	jobAttempt  int          // the CI's own attempt of the job; 0 when it does not say
}

// exitChoices are --flaky-exit and --exhausted-exit; 0 when not given.
type exitChoices struct {
	flaky, exhausted exitcodes.Code
}

// ciRun checks --ci, --ci-groups and --ci-annotations and returns what
// the run writes under the CI system they name, writing to w. Outside
// CI it reads the few variables that detection reads, and nothing else.
func (o *operateOptions) ciRun(w io.Writer, getenv func(string) string) (ciRun, error) {
	var c ciRun
	groups, err := ci.ParseGroups(o.ciGroups)
	if err != nil {
		return c, usagef("auto folds where the last attempt stays open; always folds on GitHub and Azure too", "--ci-groups: %s", err)
	}
	system, ok := ci.Named(o.ci, getenv)
	if !ok {
		return c, usagef("use "+strings.Join(ci.Names(), ", "), "--ci: unknown CI system %q", o.ci)
	}
	c.groups, c.system, c.given = groups, system, o.ci != "auto"
	if system == nil {
		return c, nil
	}
	if o.ciAnnotations != "none" {
		c.annotator = system.Annotator(w, getenv)
	}
	c.stepSummary = ci.StepSummary(system, getenv)
	c.jobAttempt = system.JobAttempt(getenv)
	return c, nil
}

// exits checks --flaky-exit and --exhausted-exit. until: --until fail,
// which has neither a flaky pass nor retries that run out.
func (o *operateOptions) exits(fs *pflag.FlagSet, until bool) (exitChoices, error) {
	var e exitChoices
	var err error
	if e.flaky, err = chosenExit(fs, "flaky-exit", o.flakyExit); err != nil {
		return e, err
	}
	if e.exhausted, err = chosenExit(fs, "exhausted-exit", o.exhaustedExit); err != nil {
		return e, err
	}
	switch {
	case until && e.flaky != 0:
		return e, usagef("--until fail stops at the first failure: no run passes after one", "--flaky-exit cannot be used with --until fail")
	case until && e.exhausted != 0:
		return e, usagef("--until fail ends at the first failure, or with no failure", "--exhausted-exit cannot be used with --until fail")
	case e.flaky != 0 && e.flaky == e.exhausted:
		return e, usagef("the CI tells a flaky pass from exhausted retries by these codes: give them different values", "--flaky-exit and --exhausted-exit are both %d", e.flaky)
	}
	return e, nil
}

// chosenExit reads an exit status the user chooses for an ending.
func chosenExit(fs *pflag.FlagSet, flag, s string) (exitcodes.Code, error) {
	if s == "" {
		if fs != nil && fs.Changed(flag) {
			return 0, usagef("", "--%s: must not be empty", flag)
		}
		return 0, nil
	}
	n, err := strconv.Atoi(s)
	if err != nil || n < int(exitcodes.MinChosen) || n > int(exitcodes.MaxChosen) {
		return 0, usagef("124 and above mean the deadline, retry's own failure, a command that cannot run, or a signal", "--%s: must be an integer from %d to %d, got %q", flag, exitcodes.MinChosen, exitcodes.MaxChosen, s)
	}
	return exitcodes.Code(n), nil
}

// warnOverlap warns, on w, of a chosen status that an attempt's own exit
// code listed in --retry-on or --stop-on could also be: the CI could not
// tell the two apart.
func (e exitChoices) warnOverlap(w io.Writer, r *classify.Rules) {
	for _, chosen := range []struct {
		flag string
		code exitcodes.Code
	}{{"--flaky-exit", e.flaky}, {"--exhausted-exit", e.exhausted}} {
		if chosen.code == 0 {
			continue
		}
		for _, rules := range []struct {
			flag  string
			rules []classify.CodeRule
		}{{"--retry-on", r.RetryOn}, {"--stop-on", r.StopOn}} {
			if slices.ContainsFunc(rules.rules, func(c classify.CodeRule) bool { return c.Codes.Contains(int(chosen.code)) }) {
				errorf(w, "warning: %s %d is also in %s: a command that exits %d could then pass in the CI as this ending", chosen.flag, chosen.code, rules.flag, chosen.code)
			}
		}
	}
}

// marks reports whether attempts get their header lines, or folds: under
// a CI, never on a terminal, never under -q.
func (p *reporter) marks() bool {
	return p.ci.system != nil && !p.quiet && !p.terminal().tty
}

// folds reports whether each attempt's output is a fold.
func (p *reporter) folds() bool {
	return p.marks() && ci.Folds(p.ci.system, p.ci.groups)
}

// fold is attempt n's fold, at now.
func (p *reporter) fold(n, max int) ci.Fold {
	return ci.Fold{
		ID:     foldID(p.name(), os.Getpid(), n),
		Header: ci.Header(p.name(), p.until, attemptOf(n, max), shellQuote(p.shownCommand())),
		At:     p.now(),
	}
}

// foldID names the fold of attempt n of the operation called name:
// unique in a job log even when several retry commands run in one job.
// A name holds only characters a GitLab section name may.
func foldID(name string, pid, n int) string {
	return fmt.Sprintf("retry-%s-%d-attempt-%d", name, pid, n)
}

// beginAttempt writes attempt n's header line, or opens its fold.
func (p *reporter) beginAttempt(n, max int) {
	switch {
	case p.folds():
		p.ci.system.BeginFold(p.w, p.fold(n, max))
	case p.marks():
		ci.HeaderLine(p.w, p.fold(n, max).Header)
	}
}

// endAttempt closes attempt n's fold; failedLast: it failed, and no
// other follows.
func (p *reporter) endAttempt(n, max int, failedLast bool) {
	if p.folds() {
		p.ci.system.EndFold(p.w, p.fold(n, max), failedLast)
	}
}

// beginSummary keeps the summary out of the last attempt's fold.
func (p *reporter) beginSummary() {
	if p.folds() {
		p.ci.system.BeginSummary(p.w, fmt.Sprintf("retry %s: summary", p.name()))
	}
}

// annotations counts a run's warning annotations: the first nine are
// made as they come; the tenth is held until the run ends, and then made,
// or replaced by the flaky pass's, or by one that counts the attempts
// left out.
type annotations struct {
	made        int    // retried attempts, annotated or not
	held        string // the tenth's text
	first, last int    // the attempts from the tenth on
}

// annotate makes retried attempt a, whose progress line is text, a
// warning annotation, or holds it.
func (p *reporter) annotate(a *runner.Attempt, text string) {
	n := &p.annotated
	n.made++
	switch {
	case n.made < ci.MaxAnnotations:
		p.warn(text)
	case n.made == ci.MaxAnnotations:
		n.held, n.first = text, a.Number
	}
	n.last = a.Number
}

// flushAnnotations makes, when the run ends, its last annotation: the
// flaky pass's, whose line is flaky ("" when the run was no flaky pass),
// or the tenth retried attempt's, or one that counts those from the
// tenth on. omitted is how many attempts the Result, and so the step
// summary, leaves out (runner.Result.Omitted).
func (p *reporter) flushAnnotations(flaky string, omitted int) {
	n := &p.annotated
	defer func() { *n = annotations{} }() // finish may run once more, on retry's own failure
	if p.ci.annotator == nil {
		return
	}
	left := ""
	if n.made >= ci.MaxAnnotations {
		which := fmt.Sprintf("%d more retried attempts, %d to %d, are", n.made-ci.MaxAnnotations+1, n.first, n.last)
		if n.first == n.last {
			which = fmt.Sprintf("retried attempt %d is", n.first)
		}
		left = fmt.Sprintf("%s not annotated: at most %d annotations a run", which, ci.MaxAnnotations)
		switch {
		case p.ci.stepSummary == "":
		case omitted == 0:
			left += "; the step summary lists every attempt"
		default:
			left += fmt.Sprintf("; the step summary lists the first %d and the last %d attempts", runner.KeepFirst, runner.KeepLast)
		}
	}
	switch {
	case flaky != "" && left != "":
		p.warn(flaky + "; " + left)
	case flaky != "":
		p.warn(flaky)
	case n.made == ci.MaxAnnotations:
		p.warn(n.held)
	case n.made > ci.MaxAnnotations:
		p.warn(left)
	}
}

// warn makes one annotation; a failure to make it is a warning line.
func (p *reporter) warn(text string) {
	ctx := context.Background()
	if !p.deadline.IsZero() {
		var cancel context.CancelFunc
		ctx, cancel = context.WithDeadline(ctx, p.deadline)
		defer cancel()
	}
	p.mu.Lock()
	err := p.ci.annotator.Warn(ctx, p.name(), text)
	p.mu.Unlock()
	if err != nil {
		errorf(p.w, "warning: %s", err)
	}
}

// flaky reports whether res is a flaky pass: an attempt succeeded after
// at least one failed.
func flaky(res *runner.Result) bool {
	last := res.Last()
	return res.Outcome == runner.Succeeded && res.Total > 1 && last != nil && !last.TimedOut
}

// exhausted reports whether res ran out of attempts or of retry budget on
// a retryable failure, after at least one attempt: the ending
// --exhausted-exit names.
func exhausted(res *runner.Result) bool {
	return (res.Outcome == runner.Exhausted || res.Outcome == runner.Budget) && res.Last() != nil
}

// notes are what retry explain says of the CI, and of the layers of
// retries it can see: depth is RETRY_DEPTH.
func (c ciRun) notes(depth int) []string {
	var notes []string
	if c.system == nil {
		if c.given {
			notes = append(notes, "CI: none (--ci none): plain output only")
		}
	} else {
		how := "detected"
		if c.given {
			how = "--ci " + c.system.Name()
		}
		for _, line := range ci.Describe(c.system, ci.Folds(c.system, c.groups), c.annotator != nil, c.jobAttempt) {
			notes = append(notes, fmt.Sprintf("CI: %s (%s): %s", c.system.Title(), how, line))
		}
	}
	var layers []string
	if depth > 0 {
		others := "another retry"
		if depth > 1 {
			others = fmt.Sprintf("%d other retries", depth)
		}
		layers = append(layers, fmt.Sprintf("inside %s (%s=%d)", others, runner.EnvDepth, depth))
	}
	if c.jobAttempt > 0 {
		layers = append(layers, fmt.Sprintf("in %s's attempt %d of the job", c.system.Title(), c.jobAttempt))
	}
	if len(layers) > 0 {
		notes = append(notes, "layers: this retry runs "+strings.Join(layers, ", ")+"; the attempts of each layer multiply")
	}
	return notes
}
