package cmd

import (
	"fmt"
	"io"
	"os"

	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/internal/stdio"
	"github.com/b0a38808/retry/runner/classify"
	"github.com/b0a38808/retry/runner/match"
)

// classifyOptions holds the classification flags as typed.
type classifyOptions struct {
	retryOn, stopOn, retryIf, stopIf, failIf, presets []string
	match, hintPattern, maxHint, onAmbiguous          string
	noHints, keepLocale                               bool

	untilFail bool // --until fail: no wait is ever a hint's
}

// register declares the classification flags on fs.
func (c *classifyOptions) register(fs *pflag.FlagSet) {
	repeatableVar(fs, &c.retryOn, "retry-on", "retry when the exit code is in `CODES` (1,75,100-110; timeout: an attempt cut by its timeout or the deadline); then unlisted failures are permanent; repeatable")
	repeatableVar(fs, &c.stopOn, "stop-on", "stop when the exit code is in `CODES` (timeout: at an attempt cut by its timeout or the deadline); repeatable")
	repeatableVar(fs, &c.retryIf, "retry-if", "retry when a line of output matches `REGEX` (Go RE2); then unlisted failures are permanent; repeatable")
	repeatableVar(fs, &c.stopIf, "stop-if", "stop when a line of output matches `REGEX`; repeatable")
	repeatableVar(fs, &c.failIf, "fail-if", "fail an attempt that exits 0 when a line of output matches `REGEX`; retried unless --stop-if matches too, exit 1 at the end; repeatable")
	fs.StringVar(&c.match, "match", "stderr", "read `STREAM` for the REGEX rules and hints: stderr, stdout or both; both when stdout and stderr are one stream, as after 2>&1")
	repeatableVar(fs, &c.presets, "preset", "add the rules of the built-in preset `NAME` (retry presets lists them); repeatable")
	fs.StringVar(&c.hintPattern, "hint-pattern", "", "read server hints with `REGEX` instead of Retry-After lines; its one group catches seconds, a duration or an HTTP-date")
	fs.BoolVar(&c.noHints, "no-hints", false, "ignore server hints such as Retry-After")
	fs.StringVar(&c.maxHint, "max-hint", "5m", "trust a server hint up to `DUR`; a longer one is clamped to it")
	fs.BoolVar(&c.keepLocale, "keep-locale", false, "leave the locale alone: presets that read messages otherwise run each attempt with LC_MESSAGES=C")
	fs.StringVar(&c.onAmbiguous, "on-ambiguous", "retry", "what to do, `MODE`, after an attempt cut by a timeout or killed by a signal: retry or stop")
}

// rules checks the flags and returns the rules they describe. stdout and
// stderr are retry's own streams. When they are one stream (`>log 2>&1`,
// stdio.OneStream) the attempts write both into one pipe, and the rules
// and hints read it all, whatever --match says. Otherwise a stream that
// only the default Retry-After hint would read is left alone when it is
// a terminal, so the command keeps its terminal (colours, progress bars,
// prompts), and when the attempts' stdout streams (not held: stdoutHeld
// false) to the same file or pipe as stderr opened apart (`>log 2>log`),
// so that their lines stay in the order the command wrote them.
func (c *classifyOptions) rules(stdout, stderr io.Writer, stdoutHeld, stderrHeld bool) (*classify.Rules, error) {
	r := &classify.Rules{}
	if err := c.addRules(r); err != nil {
		return nil, err
	}
	var err error
	if r.Read, err = classify.ParseStreamChoice(c.match); err != nil {
		return nil, usagef("", "--match: %s", err)
	}
	joined := stdio.OneStream(stdout, stderr)
	if joined {
		r.Read = classify.MatchBoth // the user joined them
	}
	if c.hintPattern != "" {
		if r.HintPattern, err = classify.CompileHintPattern(c.hintPattern); err != nil {
			return nil, usagef(regexHint, "--hint-pattern: %s", err)
		}
	}
	if r.MaxHint, err = parseDuration("--max-hint", c.maxHint); err != nil {
		return nil, err
	}
	switch c.onAmbiguous {
	case "retry":
	case "stop":
		r.StopOnAmbiguous = true
	default:
		return nil, usagef("", "--on-ambiguous: must be retry or stop, got %q", c.onAmbiguous)
	}
	if c.noHints && c.hintPattern != "" {
		return nil, usagef("", "--hint-pattern can't be used with --no-hints")
	}
	r.Hints = !c.noHints && !c.untilFail
	if r.Hints && !joined && c.hintPattern == "" && len(r.StopIf) == 0 && len(r.RetryIf) == 0 && len(r.FailIf) == 0 {
		// Only the default hint would read the output: read the watched
		// streams that are not terminals, and leave terminals alone. A
		// stream read through a pipe reaches its destination a little
		// after the other, which the command writes to directly: when
		// both go to the same place, read neither. A held stream reaches
		// its destination only at the end: it is read whatever that is.
		shared := !stdoutHeld && !stderrHeld && sameDestination(stdout, stderr)
		out := r.Read.Stdout() && (stdoutHeld || !isDevice(stdout)) && !shared
		err := r.Read.Stderr() && (stderrHeld || !isDevice(stderr)) && !shared
		switch {
		case out && err:
		case out:
			r.Read = classify.MatchStdout
		case err:
			r.Read = classify.MatchStderr
		default:
			r.Hints = false
		}
	}
	return r, nil
}

// addRules adds to r the rules the flags give: the exit-code and output
// rules as typed, then the presets' rules. An empty value never gets
// here (refuseEmpty): as a REGEX it would match every line.
func (c *classifyOptions) addRules(r *classify.Rules) error {
	var err error
	if r.StopOn, err = codeRules(r.StopOn, "--stop-on", c.stopOn); err != nil {
		return err
	}
	if r.RetryOn, err = codeRules(r.RetryOn, "--retry-on", c.retryOn); err != nil {
		return err
	}
	if r.StopIf, err = patterns(r.StopIf, "--stop-if", c.stopIf); err != nil {
		return err
	}
	if r.RetryIf, err = patterns(r.RetryIf, "--retry-if", c.retryIf); err != nil {
		return err
	}
	if r.FailIf, err = patterns(r.FailIf, "--fail-if", c.failIf); err != nil {
		return err
	}
	for _, name := range c.presets {
		p, err := classify.LookupPreset(name)
		if err != nil {
			return usagef("retry presets lists them, one line each; retry presets NAME shows the rules of one", "--preset: %s", err)
		}
		if err := r.AddPreset(p); err != nil {
			return fmt.Errorf("--preset: %w", err) // a broken built-in table: a bug
		}
	}
	return nil
}

// codeRules appends to rules the CODES of each value of flag.
func codeRules(rules []classify.CodeRule, flag string, values []string) ([]classify.CodeRule, error) {
	for _, s := range values {
		codes, err := classify.ParseCodes(s)
		if err != nil {
			return nil, usagef("", "%s: %s", flag, err)
		}
		rules = append(rules, classify.CodeRule{Codes: codes})
	}
	return rules, nil
}

// patterns appends to pats the REGEX of each value of flag.
func patterns(pats []*match.Pattern, flag string, values []string) ([]*match.Pattern, error) {
	for _, s := range values {
		p, err := match.Compile(s)
		if err != nil {
			return nil, usagef(regexHint, "%s: %s", flag, err)
		}
		pats = append(pats, p)
	}
	return pats, nil
}

const regexHint = `REGEX is Go RE2 syntax, matched against each line: quote it, as in --retry-if 'timed out|503'`

// isDevice reports whether w is a character device other than the null
// device: a terminal (isTerminal), or another device that a pipe in
// between would hide from the command.
func isDevice(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	if err != nil || fi.Mode()&os.ModeCharDevice == 0 {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(fi, null)
}

// messagesInC reports whether the attempts run with English messages: a
// preset reads them, and --keep-locale was not given.
func (c *classifyOptions) messagesInC() bool {
	if c.keepLocale {
		return false
	}
	for _, name := range c.presets {
		if p, err := classify.LookupPreset(name); err == nil && p.ReadsMessages() {
			return true
		}
	}
	return false
}

// sameDestination reports whether a and b are the same file or pipe (as
// after `2>&1`), other than the null device, where order does not show.
func sameDestination(a, b io.Writer) bool {
	fa, ok := a.(*os.File)
	if !ok {
		return false
	}
	fb, ok := b.(*os.File)
	if !ok {
		return false
	}
	ia, err := fa.Stat()
	if err != nil {
		return false
	}
	ib, err := fb.Stat()
	if err != nil || !os.SameFile(ia, ib) {
		return false
	}
	null, err := os.Stat(os.DevNull)
	return err != nil || !os.SameFile(ia, null)
}
