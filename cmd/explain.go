package cmd

import (
	"io"
	"os"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/spf13/cobra"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/classify"
	"github.com/b0a38808/retry/runner/match"
)

// explainOptions are the flags of `retry explain`: every flag of a run,
// and the attempt to classify.
type explainOptions struct {
	run      *options
	exitCode string
	output   []string
}

// newExplainCommand returns `retry explain`, which prints to stdout the
// plan and the rules that a run with the same flags would follow, and
// runs nothing. args is its command line, after "explain".
func newExplainCommand(stdout io.Writer, args []string) *cobra.Command {
	e := &explainOptions{run: newOptions(nil)}
	e.run.args = args
	c := &cobra.Command{
		Use:   "explain [flags] [--] COMMAND [ARG...]",
		Short: "Print the plan and the rules a run with these flags would follow, without running anything",
		Long: `retry explain takes the flags of a run and runs nothing. It prints each
attempt with the bounds of the wait after it, the longest and the median
total time, whether the deadline can hold the plan, and every rule in the
order it applies, presets expanded, with its source.

With --exit-code N, and --output LINE for each line the attempt printed on
the stream the rules read, it prints the class and the reason that a run
would give such an attempt, from the same classification code.
--summary json prints the same as JSON.`,
		Args:                  cobra.ArbitraryArgs,
		DisableFlagsInUseLine: true,
		RunE: func(c *cobra.Command, args []string) error {
			if err := refuseEmpty(c.Flags()); err != nil {
				return err
			}
			return e.explain(args, stdout)
		},
	}
	c.Flags().SetInterspersed(false)
	c.Flags().SortFlags = false
	c.ValidArgsFunction = completeCommand
	e.run.register(c.Flags())
	c.Flags().StringVar(&e.exitCode, "exit-code", "", "classify an attempt that exited with `N` (0-255), or that its --timeout cut (timeout), as a run would")
	repeatableVar(c.Flags(), &e.output, "output", "with --exit-code: the attempt printed `LINE` on the stream the rules read (repeatable)")
	return c
}

// explanation is what retry explain prints, and its JSON form.
type explanation struct {
	Command     []string        `json:"command"`
	Name        string          `json:"name"`
	Until       string          `json:"until,omitempty"` // "fail" for --until fail
	Attempts    int             `json:"attempts"`        // 0: unlimited
	DeadlineMS  *float64        `json:"deadline_ms,omitempty"`
	TimeoutMS   *float64        `json:"timeout_ms,omitempty"`
	SplayMS     *float64        `json:"splay_ms,omitempty"` // absent without --splay, or nested
	KillAfterMS float64         `json:"kill_after_ms"`
	Delay       float64         `json:"delay_ms"`
	MaxDelay    float64         `json:"max_delay_ms"`
	Jitter      string          `json:"jitter"`
	ResetAfter  *float64        `json:"reset_after_ms,omitempty"` // absent without --reset-after
	OnRetry     *explainHook    `json:"on_retry,omitempty"`       // absent without --on-retry
	Plan        []explainStep   `json:"plan"`
	WaitsMaxMS  *float64        `json:"waits_max_ms,omitempty"`    // absent when unlimited
	WaitsMedMS  *float64        `json:"waits_median_ms,omitempty"` // absent when unlimited
	WorstMS     *float64        `json:"worst_case_ms,omitempty"`   // absent when unbounded
	Deadline    string          `json:"deadline"`                  // the deadline line
	Holds       *bool           `json:"deadline_holds,omitempty"`  // absent without a deadline, or when unlimited
	Starts      *int            `json:"worst_case_starts,omitempty"`
	Notes       []string        `json:"notes,omitempty"`
	Rules       []explainRule   `json:"rules"`
	Result      *explainVerdict `json:"result,omitempty"`
}

// explainHook is the --on-retry command of the plan.
type explainHook struct {
	Command string `json:"command"` // with its secrets hidden
	OnFail  string `json:"on_fail"` // continue or stop
}

// explainStep is a planStep in JSON.
type explainStep struct {
	First     int      `json:"first"`
	Last      int      `json:"last"` // 0: and every later attempt
	WaitMinMS *float64 `json:"wait_min_ms,omitempty"`
	WaitMaxMS *float64 `json:"wait_max_ms,omitempty"`
}

// explainVerdict is how a run would classify the attempt of --exit-code
// and --output.
type explainVerdict struct {
	ExitCode *int     `json:"exit_code,omitempty"` // absent for --exit-code timeout
	TimedOut bool     `json:"timed_out,omitempty"` // --exit-code timeout: cut by its timeout
	Signal   string   `json:"signal,omitempty"`    // the stop signal that cut it
	Output   []string `json:"output"`
	Class    string   `json:"class"`
	Reason   string   `json:"reason"`
	Retry    bool     `json:"retry"` // another attempt may start
	HintMS   *float64 `json:"hint_ms,omitempty"`
	Hint     string   `json:"hint,omitempty"`
}

// exitCode is the code the attempt exited with; -1 when its timeout cut it.
func (v *explainVerdict) exitCode() int {
	if v.ExitCode == nil {
		return -1
	}
	return *v.ExitCode
}

// explain checks the flags as a run does and prints the explanation.
func (e *explainOptions) explain(args []string, stdout io.Writer) error {
	o := e.run
	now := time.Now()
	cfg, err := o.config(args, now)
	if err != nil {
		return err
	}
	// No stream of retry's is the attempts' here: the rules read what
	// the flags say, whatever retry explain's own output is.
	if cfg.Rules, err = o.classify.rules(nil, nil, false, false); err != nil {
		return err
	}
	rep, err := o.reporter(cfg.Command, io.Discard, os.Getenv, false)
	if err != nil {
		return err
	}
	verdict, err := e.verdict(cfg.Rules, cfg.StopSignal, cfg.UntilFailure, rep)
	if err != nil {
		return err
	}
	if len(args) == 0 {
		// After the values: a bad one is the error to show.
		return usagef("usage: retry explain [flags] [--] COMMAND [ARG...]", "explain: missing command")
	}
	x := newExplanation(cfg, now, rep)
	if o.nesting.note != "" {
		x.Notes = append(x.Notes, o.nesting.note)
	}
	if cfg.Splay > 0 && cfg.Depth > 0 {
		x.Notes = append(x.Notes, "--splay: no splay, nested in another retry: the outer one splayed")
	}
	if o.budget.budget != "" {
		x.Notes = append(x.Notes, "--budget "+o.budget.budget+": each retry also needs the shared budget; a wait for it, or for a --max-concurrent slot, counts against the deadline")
		if note := o.budget.store.note(); note != "" {
			x.Notes = append(x.Notes, note)
		}
	}
	x.Notes = append(x.Notes, rep.ci.notes(cfg.Depth)...)
	if cfg.UntilFailure {
		x.Rules = untilRules(cfg.Rules)
	} else {
		x.Rules = explainRules(cfg.Rules)
	}
	x.Result = verdict
	if rep.mode == summaryJSON {
		return writeJSON(stdout, x)
	}
	_, err = io.WriteString(stdout, x.text(cfg.Rules))
	return err
}

// verdict classifies the attempt of --exit-code and --output with the
// rules of the run, through the same matcher and Classify a run uses.
// An attempt that --exit-code timeout describes died from stop, the stop
// signal; until: the run is one of --until fail's.
func (e *explainOptions) verdict(rules *classify.Rules, stop syscall.Signal, until bool, rep *reporter) (*explainVerdict, error) {
	if e.exitCode == "" {
		if len(e.output) > 0 {
			return nil, usagef("add --exit-code N: the rules read the exit code too", "--output needs --exit-code")
		}
		return nil, nil
	}
	exit := exitcodes.Exit{ExitCode: -1, Signal: stop, SignalSent: true, TimedOut: true}
	if e.exitCode != classify.TimeoutWord {
		code, err := strconv.Atoi(e.exitCode)
		if err != nil || code < 0 || code > 255 {
			return nil, usagef("", "--exit-code: must be an integer from 0 to 255, or timeout, got %q", e.exitCode)
		}
		exit = exitcodes.Exit{ExitCode: code}
	}
	var out match.Output
	if m := rules.NewMatcher(time.Now); m != nil {
		stream := "stderr"
		if !rules.Read.Stderr() {
			stream = "stdout"
		}
		w := m.Writer(stream)
		for _, line := range e.output {
			_, _ = io.WriteString(w, line+"\n")
		}
		_ = w.Close()
		out = m.Output()
	}
	d := rules.Classify(classify.Facts{Exit: exit, Output: out})
	if until && d.Class != classify.Success {
		// The failure the runs stop at.
		d = classify.Decision{Class: classify.Failure, Reason: runner.FailureReason(exit, d)}
	}
	v := &explainVerdict{
		Output: make([]string, len(e.output)),
		Class:  d.Class.String(),
		Reason: rep.redactor.Reason(d.Reason),
		Retry:  d.Retry,
	}
	if exit.TimedOut {
		v.TimedOut, v.Signal = true, proc.SignalName(stop)
	} else {
		v.ExitCode = ptr(exit.ExitCode)
	}
	for i, line := range e.output {
		v.Output[i] = rep.redactor.Reason(line)
	}
	if out.HasHint && d.Retry {
		hint, note := rules.Wait(0, out)
		v.HintMS, v.Hint = ptr(millis(hint)), note
	}
	return v, nil
}

// newExplanation lays out the plan of cfg, an operation set up at now.
func newExplanation(cfg runner.Config, now time.Time, rep *reporter) *explanation {
	x := &explanation{
		Command:     rep.shownCommand(),
		Name:        rep.name(),
		Attempts:    cfg.Attempts,
		KillAfterMS: millis(cfg.KillAfter),
		Delay:       millis(cfg.Backoff.Base),
		MaxDelay:    millis(cfg.Backoff.Cap),
		Jitter:      cfg.Backoff.Jitter.String(),
	}
	if cfg.Backoff.ResetAfter > 0 {
		x.ResetAfter = ptr(millis(cfg.Backoff.ResetAfter))
	}
	if cfg.OnRetry != "" {
		x.OnRetry = &explainHook{Command: rep.redactor.Args([]string{"/bin/sh", "-c", cfg.OnRetry})[2], OnFail: "continue"}
		if cfg.OnRetryStop {
			x.OnRetry.OnFail = "stop"
		}
	}
	steps := planSteps(cfg.Backoff, cfg.Attempts)
	for _, s := range steps {
		js := explainStep{First: s.first, Last: s.last}
		if s.wait {
			js.WaitMinMS, js.WaitMaxMS = ptr(millis(s.min)), ptr(millis(s.max))
		}
		x.Plan = append(x.Plan, js)
	}
	var deadline time.Duration
	if !cfg.Deadline.IsZero() {
		deadline = max(0, cfg.Deadline.Sub(now))
		x.DeadlineMS = ptr(millis(deadline))
	}
	if cfg.Timeout > 0 {
		x.TimeoutMS = ptr(millis(cfg.Timeout))
	}
	splay := cfg.MaxSplay()
	if splay > 0 {
		x.SplayMS = ptr(millis(splay))
	}
	var longest, median time.Duration
	if cfg.Attempts > 0 {
		longest, median = waitTotals(steps)
		// The splay is one more wait, before the first attempt.
		longest, median = addSat(longest, splay), addSat(median, splay/2)
		x.WaitsMaxMS, x.WaitsMedMS = ptr(millis(longest)), ptr(millis(median))
		if cfg.Timeout > 0 {
			x.WorstMS = ptr(millis(addSat(longest, mulSat(cfg.Timeout, cfg.Attempts))))
		}
	}
	if !cfg.Deadline.IsZero() {
		if x.WorstMS == nil || millis(deadline) < *x.WorstMS {
			x.WorstMS = ptr(millis(deadline))
		}
	}
	if cfg.UntilFailure {
		x.Until = untilFail
		x.Deadline, x.Holds, x.Starts = untilDeadlineLine(cfg, steps, deadline, longest)
	} else {
		x.Deadline, x.Holds, x.Starts = deadlineLine(cfg, steps, deadline, longest)
	}
	return x
}

// deadlineLine says whether the deadline can hold the plan, and how many
// attempts start before it with the longest waits, when it has come to
// that.
func deadlineLine(cfg runner.Config, steps []planStep, deadline, longest time.Duration) (string, *bool, *int) {
	if cfg.Deadline.IsZero() {
		return "none: nothing bounds the whole operation (--deadline DUR does)", nil, nil
	}
	longestWait := func(s planStep) time.Duration { return s.max }
	medianWait := func(s planStep) time.Duration { return s.median() }
	per, attemptsTake := cfg.Timeout, "attempts that take no time"
	if per > 0 {
		attemptsTake = "attempts of the whole --timeout " + dur(per)
	}
	// The attempts and their waits have what the longest splay leaves.
	room := max(0, deadline-cfg.MaxSplay())
	n, all := startsWithin(steps, room, per, longestWait)
	if cfg.Attempts == 0 {
		line := dur(deadline) + " ends the unlimited attempts"
		if all && n == 0 {
			return line + "; no wait and no --timeout bounds how many start before it", nil, nil
		}
		line += "; with the longest waits and " + attemptsTake + ", " + plural(n, "attempt") + " start"
		if m, _ := startsWithin(steps, room, per, medianWait); m != n {
			line += "; with median waits, " + strconv.Itoa(m)
		}
		return line, nil, &n
	}
	worst := longest
	what := "the waits may add up to " + dur(longest)
	if per > 0 {
		worst = addSat(longest, mulSat(per, cfg.Attempts))
		what = plural(cfg.Attempts, "attempt") + " of up to " + dur(per) + " and waits of up to " + dur(longest) + " may add up to " + dur(worst)
	}
	if worst <= deadline {
		line := dur(deadline) + " holds the plan: " + strings.Replace(what, " may add up to ", " add up to at most ", 1)
		if per == 0 {
			line += ", leaving at least " + dur(deadline-worst) + " for the attempts themselves"
		}
		return line, ptr(true), &n
	}
	line := dur(deadline) + " cannot hold the plan: " + what
	if all {
		return line + "; the attempts must take less than " + dur(deadline) + " in all", ptr(false), &n
	}
	verb := " start"
	if n == 1 {
		verb = " starts"
	}
	line += "; with the longest waits and " + attemptsTake + ", only " + strconv.Itoa(n) + " of the " + strconv.Itoa(cfg.Attempts) + " attempts" + verb + ", and retry gives up with exit 124"
	return line, ptr(false), &n
}

// dur renders a duration of the plan as Go writes it, to the millisecond:
// "11s", "1.5s", "250ms", "2m30s", "5m".
func dur(d time.Duration) string {
	if d > time.Millisecond {
		d = d.Round(time.Millisecond)
	}
	s := d.String()
	if strings.HasSuffix(s, "m0s") {
		s = strings.TrimSuffix(s, "0s")
	}
	if strings.HasSuffix(s, "h0m") {
		s = strings.TrimSuffix(s, "0m")
	}
	return s
}

// writeJSON writes v as the reports are written.
func writeJSON(w io.Writer, v any) error {
	data, err := encodeJSON(v)
	if err != nil {
		return err
	}
	_, err = w.Write(data)
	return err
}
