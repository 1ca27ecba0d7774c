package classify

import (
	"fmt"
	"time"

	"github.com/b0a38808/retry/runner/match"
)

// StreamChoice selects the output streams that output rules and hints read.
type StreamChoice int

// The choices of --match.
const (
	MatchStderr StreamChoice = iota
	MatchStdout
	MatchBoth
)

// ParseStreamChoice reads a --match value: stderr, stdout or both.
func ParseStreamChoice(s string) (StreamChoice, error) {
	switch s {
	case "stderr":
		return MatchStderr, nil
	case "stdout":
		return MatchStdout, nil
	case "both":
		return MatchBoth, nil
	}
	return 0, fmt.Errorf("must be stderr, stdout or both, got %q", s)
}

// String returns the --match spelling.
func (s StreamChoice) String() string {
	switch s {
	case MatchStdout:
		return "stdout"
	case MatchBoth:
		return "both"
	}
	return "stderr"
}

// Stdout and Stderr report whether the choice includes that stream.
func (s StreamChoice) Stdout() bool { return s != MatchStderr }

// Stderr reports whether the choice includes stderr.
func (s StreamChoice) Stderr() bool { return s != MatchStdout }

// ReadsOutput reports whether some rule or the hints need the attempts'
// output; when not, the streams go to the command untouched.
func (r *Rules) ReadsOutput() bool {
	return len(r.StopIf) > 0 || len(r.RetryIf) > 0 || len(r.FailIf) > 0 || r.Hints
}

// NewMatcher returns a Matcher for one attempt's output, nil when no rule
// reads output. now is the clock HTTP-date hints are measured against. The
// Matchers of one Rules share their compiled search.
func (r *Rules) NewMatcher(now func() time.Time) *match.Matcher {
	if !r.ReadsOutput() {
		return nil
	}
	if r.search == nil {
		r.search = new(match.Search)
	}
	if now == nil {
		now = time.Now
	}
	w := match.Config{StopIf: r.StopIf, RetryIf: r.RetryIf, FailIf: r.FailIf, Search: r.search}
	switch {
	case r.Hints && r.HintPattern != nil:
		w.Hint = r.HintPattern
		w.ParseHint = func(v string) (time.Duration, error) { return ParseHintValue(v, now()) }
	case r.Hints:
		// Made once for the Matchers of r, which then share their search;
		// its expression is compiled when a line first holds its string.
		if r.retryAfter == nil {
			r.retryAfter = presetTable.Known(retryAfter)
		}
		w.Hint = r.retryAfter
		w.ParseHint = func(v string) (time.Duration, error) { return ParseRetryAfter(v, now()) }
	}
	return match.New(w)
}

// Wait returns the wait before the next attempt: the jittered delay, or the
// server's hint when that is longer, a hint above MaxHint being clamped to
// it (MaxHint 0 trusts no hint). note says how a hint changed the wait, for
// the attempt's reason; it is empty when there was no hint.
func (r *Rules) Wait(delay time.Duration, out match.Output) (wait time.Duration, note string) {
	if !out.HasHint {
		return delay, ""
	}
	hint := out.Hint
	note = "server hint " + hint.Round(time.Millisecond).String()
	if hint > r.MaxHint {
		hint = r.MaxHint
		note += fmt.Sprintf(" clamped to --max-hint %s", r.MaxHint)
	}
	if hint <= delay {
		return delay, note + ", shorter than the backoff delay"
	}
	return hint, note
}
