package cmd

import (
	"fmt"
	"io"
	"os"
	"strings"
	"sync"
	"time"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/internal/redact"
	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/classify"
)

// reporter tells the user what retry does and did: a line on stderr per
// failed attempt while it runs, then the summary, the JSON report and the
// CI's own forms when it ends. It is the runner's Observer.
//
// A first attempt that succeeds, with no summary asked for, costs nothing
// here: the terminal is probed, and the command redacted and the default
// name made, only when something is about to be shown.
type reporter struct {
	w           io.Writer // stderr
	quiet       bool
	mode        summaryMode
	summaryFile string
	metricsFile string
	givenName   string // --name; "" for the default, made when first needed
	until       bool   // --until fail
	command     []string
	redactor    *redact.Redactor
	getenv      func(string) string
	ci          ciRun
	exits       exitChoices
	deadline    time.Time // the operation's; zero for none
	now         func() time.Time

	mu      sync.Mutex // orders writes to w with the countdown's
	term    *terminal  // probed when first needed
	shown   []string   // the command, redacted when first needed
	count   *countdown // the wait counting down, on a terminal
	advised bool       // the hint of a blind preset has been shown

	annotated annotations // the CI's warning annotations so far

	watch *ownOutput // told when a progress line finds no reader; may be nil
}

// countdownMin is the shortest wait worth counting down.
const countdownMin = 250 * time.Millisecond

// reporter checks --summary, --redact and the files to write, and returns
// the reporter of an operation running command. probe: check that the
// files' directories can be written in, by creating a file there
// (checkOutputPath); retry explain, which writes nothing, does not.
func (o *options) reporter(command []string, w io.Writer, getenv func(string) string, probe bool) (*reporter, error) {
	mode, err := parseSummaryMode(o.summary)
	if err != nil {
		return nil, err
	}
	if o.summaryFile != "" {
		// A path the report could not be written to at the end is bad
		// input, found before the command runs.
		if err := checkOutputPath("--summary-file", o.summaryFile, "report.json", probe); err != nil {
			return nil, err
		}
	}
	var redactor *redact.Redactor
	if len(o.redact) > 0 {
		if redactor, err = redact.New(o.redact); err != nil {
			return nil, usagef("--redact takes a Go regular expression (RE2 syntax)", "--redact: %s", err)
		}
	}
	name, err := o.operate.check(o.fs, redactor, probe)
	if err != nil {
		return nil, err
	}
	c, err := o.operate.ciRun(w, getenv)
	if err != nil {
		return nil, err
	}
	exits, err := o.operate.exits(o.fs, o.until == untilFail)
	if err != nil {
		return nil, err
	}
	return &reporter{
		w:           w,
		quiet:       o.quiet,
		mode:        mode,
		summaryFile: o.summaryFile,
		metricsFile: o.operate.metricsFile,
		givenName:   name,
		until:       o.until == untilFail,
		command:     command,
		redactor:    redactor,
		getenv:      getenv,
		ci:          c,
		exits:       exits,
		now:         time.Now,
	}, nil
}

// terminal returns what w can do, probing it the first time.
func (p *reporter) terminal() terminal {
	if p.term == nil {
		t := probeTerminal(p.w, p.getenv)
		p.term = &t
	}
	return *p.term
}

// name returns the operation's name: --name, or the default, made the
// first time.
func (p *reporter) name() string {
	if p.givenName == "" {
		p.givenName = defaultName(p.command, p.redactor)
	}
	return p.givenName
}

// shownCommand returns the command with its secrets hidden.
func (p *reporter) shownCommand() []string {
	if p.shown == nil {
		p.shown = p.redactor.Args(p.command)
	}
	return p.shown
}

// Splaying says how long the splay before the first attempt lasts:
//
//	retry: waiting 1.23s before the first attempt (--splay)
func (p *reporter) Splaying(d time.Duration) {
	p.say(fmt.Sprintf("waiting %s before the first attempt (--splay)", seconds(d)))
}

// Cancelling says, as soon as retry is cancelled, what it waits for and
// for how long at most:
//
//	retry: cancelled: waiting up to 10s for the command to exit (--kill-after)
func (p *reporter) Cancelling(what string, grace time.Duration) {
	p.say(fmt.Sprintf("cancelled: waiting up to %s for %s to exit (--kill-after)", dur(grace), what))
}

// say writes one progress line, "retry: TEXT"; -q drops it.
func (p *reporter) say(text string) {
	if p.quiet {
		return
	}
	t := p.terminal()
	p.mu.Lock()
	_, err := fmt.Fprintf(p.w, "%s %s\n", t.paint(bold, "retry:"), text)
	p.mu.Unlock()
	p.watch.wrote(err)
}

// AttemptStarted writes, under a CI, the attempt's header line, or opens
// its fold of the job log.
func (p *reporter) AttemptStarted(a *runner.Attempt, max int) {
	p.count.Stop()
	p.count = nil
	p.beginAttempt(a.Number, max)
}

// AttemptFinished closes the attempt's fold and, when the attempt
// failed, prints its line:
//
//	retry: attempt 1/3 failed after 0.21s: exit 1 (retryable: default: exit 1 may be transient); next attempt in 0.63s
//
// A retried attempt is also a warning annotation where the CI has them,
// even under -q: the CI shows it on its page, not in the log.
func (p *reporter) AttemptFinished(a *runner.Attempt, max int, retrying bool) {
	p.endAttempt(a.Number, max, a.Class != classify.Success && !retrying)
	if a.Class == classify.Success {
		return
	}
	if a.Class == classify.Failure && (p.mode == summaryText || p.mode == summaryAuto) {
		// The failure that --until fail looked for ends the runs, and
		// the summary line says it with more: one line for one failure.
		return
	}
	var text string
	switch {
	case a.Class == classify.Failure:
		// The failure that --until fail looked for: its reason says how.
		text = fmt.Sprintf("run %s failed after %s: %s", attemptOf(a.Number, max), seconds(a.Duration), p.redactor.Reason(a.Reason))
	case a.Cancelled != "" && !p.until:
		// Not a failure to retry or give up on: the user ended it. Its
		// class stays in the report.
		text = fmt.Sprintf("attempt %s cancelled after %s: %s (%s)", attemptOf(a.Number, max), seconds(a.Duration), describe(a), a.Cancelled)
	case p.until:
		// Not the failure looked for: the deadline or the user ended it.
		text = fmt.Sprintf("run %s stopped after %s: %s (%s)", attemptOf(a.Number, max), seconds(a.Duration), describe(a), p.redactor.Reason(a.Reason))
	default:
		text = fmt.Sprintf("attempt %s failed after %s: %s (%s: %s)",
			attemptOf(a.Number, max), seconds(a.Duration), describe(a), a.Class, p.redactor.Reason(a.Reason))
	}
	if a.Hook != nil {
		text += "; " + p.redactor.Reason(describeHook(a.Hook))
	}
	if retrying {
		text += "; next attempt in " + seconds(a.Delay)
		if a.BackoffReset {
			text += " (backoff reset)"
		}
	}
	if a.Stopped != "" {
		text += "; " + a.Stopped
	}
	if p.ci.annotator != nil && retrying {
		p.annotate(a, text)
	}
	if p.quiet {
		return
	}
	t := p.terminal()
	colour := yellow
	if !retrying {
		colour = red
	}
	p.mu.Lock()
	_, err := fmt.Fprintf(p.w, "%s %s\n", t.paint(bold, "retry:"), t.paint(colour, text))
	if a.Advice != "" && !p.advised {
		// Once per operation: every attempt would say the same.
		p.advised = true
		if err == nil {
			_, err = fmt.Fprintf(p.w, "%s %s\n", t.paint(bold, "retry: hint:"), a.Advice)
		}
	}
	p.mu.Unlock()
	// Told at once, so that the wait that follows is already cancelled.
	p.watch.wrote(err)
	if retrying && t.live && a.Delay >= countdownMin {
		p.count = startCountdown(p.w, &p.mu, t, a.Delay)
	}
}

// finish tells how the operation ended: the JSON report to
// --summary-file, the Markdown summary to $GITHUB_STEP_SUMMARY, and the
// summary on stderr as --summary asks. It runs on every way an operation
// ends, cancellation included.
func (p *reporter) finish(res *runner.Result, max, code int) {
	p.count.Stop()
	p.count = nil
	line := p.summaryLine(res, max, code)
	flakyNote := ""
	if flaky(res) && p.ci.annotator != nil {
		flakyNote = line
	}
	p.flushAnnotations(flakyNote, res.Omitted())
	var rep *report
	if p.summaryFile != "" || p.mode == summaryJSON {
		rep = newReport(p.name(), p.shownCommand(), res, code, p.redactor)
		rep.CI = newCIReport(p.ci)
	}
	if p.summaryFile != "" {
		if err := writeReport(p.summaryFile, rep); err != nil {
			// The exit status stays the operation's: a deploy that
			// succeeded is not reported as failed.
			errorf(p.w, "--summary-file: cannot write %s: %s", p.summaryFile, pathErrorText(err))
		}
	}
	p.writeMetricsFile(res, code)
	if p.ci.stepSummary != "" && noteworthy(res) {
		if err := p.appendStepSummary(res, line); err != nil {
			errorf(p.w, "GITHUB_STEP_SUMMARY: %s", err)
		}
	}
	mode := p.mode
	if mode == summaryAuto && (p.quiet || !noteworthy(res)) {
		mode = summaryNone
	}
	if mode != summaryNone && res.Total > 0 {
		p.beginSummary()
	}
	switch mode {
	case summaryAuto, summaryText:
		t := p.terminal()
		colour := green
		if res.Outcome != runner.Succeeded && res.Outcome != runner.Passed {
			colour = red
		}
		fmt.Fprintf(p.w, "%s %s\n", t.paint(bold, "retry:"), t.paint(colour, line))
		if mode == summaryText {
			writeTable(p.w, attemptRows(res, p.redactor))
		}
	case summaryJSON:
		data, err := reportJSON(rep)
		if err != nil {
			errorf(p.w, "--summary: %s", err)
			return
		}
		_, _ = p.w.Write(data)
	}
}

// appendStepSummary appends the Markdown summary, whose line is line, to
// the file GitHub Actions shows on the run's page.
func (p *reporter) appendStepSummary(res *runner.Result, line string) error {
	f, err := os.OpenFile(p.ci.stepSummary, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o666)
	if err != nil {
		return err
	}
	writeMarkdown(f, p.name(), p.shownCommand(), line, attemptRows(res, p.redactor))
	return f.Close()
}

// summaryLine is the summary line of res, and, where they apply, the
// status a chosen exit gave, and the CI's own attempt of the job:
//
//	passed on attempt 3 of 5 (flaky) after 1.40s; exit 3 (--flaky-exit); GitHub Actions job attempt 2
func (p *reporter) summaryLine(res *runner.Result, max, code int) string {
	line := summaryLine(res, max, code, p.redactor)
	switch c := exitcodes.Code(code); {
	case c == 0:
	case c == p.exits.flaky && flaky(res):
		line += fmt.Sprintf("; exit %d (--flaky-exit)", code)
	case c == p.exits.exhausted && exhausted(res):
		line += fmt.Sprintf("; exit %d (--exhausted-exit)", code)
	}
	if p.ci.jobAttempt > 0 {
		line += fmt.Sprintf("; %s job attempt %d", p.ci.system.Title(), p.ci.jobAttempt)
	}
	return line
}

// describe says how an attempt ended: "exit 1", "killed by SIGKILL",
// "timed out".
func describe(a *runner.Attempt) string {
	switch {
	case a.StartErr != nil:
		return fmt.Sprintf("exit %d", a.ExitCode)
	case a.TimedOut:
		return "timed out"
	case a.Signal != 0:
		return "killed by " + proc.SignalName(a.Signal)
	case a.ExitCode == 0 && a.Class != classify.Success:
		return "exit 0, failed by --fail-if"
	}
	return fmt.Sprintf("exit %d", a.ExitCode)
}

// attemptOf renders "2/3", or "2" when attempts are unlimited.
func attemptOf(n, max int) string {
	if max == 0 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d/%d", n, max)
}

// numberOf renders "2 of 3", or "2" when attempts are unlimited, for the
// summary's sentences.
func numberOf(n, max int) string {
	if max == 0 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d of %d", n, max)
}

// seconds renders d as seconds with two decimals, "0.21s"; a minute or
// more as a rounded duration, "2m3s", without its zero tail: "2m", "1h".
func seconds(d time.Duration) string {
	if d >= time.Minute {
		s := d.Round(time.Second).String()
		if strings.HasSuffix(s, "m0s") {
			s = strings.TrimSuffix(s, "0s")
		}
		if strings.HasSuffix(s, "h0m") {
			s = strings.TrimSuffix(s, "0m")
		}
		return s
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
