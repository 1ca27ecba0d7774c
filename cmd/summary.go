package cmd

import (
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/b0a38808/retry/internal/proc"
	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/classify"
)

// summaryMode is --summary: what retry prints on stderr when it ends.
type summaryMode string

// The --summary modes.
const (
	// summaryAuto: one line, when more than one attempt ran or the
	// operation failed; nothing under -q.
	summaryAuto summaryMode = "auto"
	// summaryText: the line, always, and a table of the attempts.
	summaryText summaryMode = "text"
	// summaryJSON: the JSON report, as --summary-file writes it.
	summaryJSON summaryMode = "json"
	// summaryNone: nothing.
	summaryNone summaryMode = "none"
)

func parseSummaryMode(s string) (summaryMode, error) {
	switch m := summaryMode(s); m {
	case summaryAuto, summaryText, summaryJSON, summaryNone:
		return m, nil
	}
	return "", usagef("use auto, text, json or none", "--summary: unknown mode %q", s)
}

// noteworthy reports whether an operation deserves the auto summary: it
// took more than one attempt, or it failed.
func noteworthy(res *runner.Result) bool {
	return res.Outcome != runner.Succeeded || res.Total > 1
}

// summaryLine says in one line how the operation ended, without the
// "retry: " prefix; r redacts the reason it quotes:
//
//	succeeded on attempt 1/3 after 0.40s
//	passed on attempt 3 of 5 (flaky) after 1.40s
//	gave up after 3 attempts in 5.20s: exit 1 (attempts exhausted)
//	gave up after 3 attempts in 0.60s: the next wait, 1.52s, would pass the deadline in 0.40s (exit 124)
//	run 7 of 50 failed after 0.84s: exit 1 (6 passed before it, 3.20s in all)
//	no failure in 50 runs in 12.30s
func summaryLine(res *runner.Result, max, code int, r reasoner) string {
	if line, ok := untilLine(res, max, code, r); ok {
		return line
	}
	n := res.Total
	last := res.Last()
	noun := "attempt"
	if res.UntilFailure {
		noun = "run"
	}
	took := seconds(res.Elapsed)
	switch res.Outcome {
	case runner.Succeeded:
		if flaky(res) {
			// A success after a failure: the CI shows it green, the
			// summary says what it took.
			return fmt.Sprintf("passed on attempt %s (flaky) after %s", numberOf(n, max), took)
		}
		return fmt.Sprintf("succeeded on attempt %s after %s", attemptOf(n, max), took)
	case runner.Cancelled:
		if res.Signal != 0 || last == nil {
			return fmt.Sprintf("cancelled%s after %s in %s", by(res), plural(n, noun), took)
		}
		return fmt.Sprintf("cancelled after %s in %s: %s", plural(n, noun), took, describe(last))
	case runner.Deadline:
		if last != nil && last.HintPastDeadline {
			return fmt.Sprintf("gave up after %s in %s: the server asked to wait %s, past the deadline in %s (exit %d)",
				plural(n, noun), took, seconds(last.Hint), seconds(last.Left), code)
		}
		if last != nil && last.Unstarted > 0 {
			// The deadline has not come: the wait would have passed it.
			return fmt.Sprintf("gave up after %s in %s: the next wait, %s, would pass the deadline in %s (exit %d)",
				plural(n, noun), took, seconds(last.Unstarted), seconds(last.Left), code)
		}
		return fmt.Sprintf("gave up after %s in %s: deadline reached (exit %d)", plural(n, noun), took, code)
	}
	why := map[runner.Outcome]string{
		runner.Permanent: "permanent failure",
		runner.Exhausted: "attempts exhausted",
		runner.Budget:    "retry budget empty",
	}[res.Outcome]
	if res.Outcome == runner.Budget && res.StoreOutage != nil {
		why = "budget store unavailable"
	}
	if last == nil {
		return fmt.Sprintf("gave up before the first attempt (%s)", why)
	}
	if last.ExitCode == 0 && last.Signal == 0 && last.StartErr == nil && !last.TimedOut {
		why += fmt.Sprintf(", exit %d", code) // failed by --fail-if
	}
	if res.Outcome == runner.Permanent && last.Class == classify.Ambiguous {
		// Not known to be permanent: --on-ambiguous stop made it final.
		why = "ambiguous, --on-ambiguous stop"
	}
	return fmt.Sprintf("gave up after %s in %s: %s (%s)", plural(n, noun), took, describe(last), why)
}

func by(res *runner.Result) string {
	if res.Signal == 0 {
		return ""
	}
	return " by " + proc.SignalName(res.Signal)
}

// attemptRow is one attempt as the text and Markdown tables show it.
type attemptRow struct {
	attempt, at, took, result, class, wait, reason string
}

// attemptTable is the attempts of an operation as the text and Markdown
// tables show them: a row for each attempt the Result keeps and, in a run
// of many attempts, one line that stands for those it left out.
type attemptTable struct {
	rows  []attemptRow
	gapAt int    // how many rows come before the gap
	gap   string // the line in the gap; "" when no attempt is left out
}

// attemptRows renders the attempts of res, their reasons redacted. The
// wait says when it was a server's hint or started the backoff over, and
// the reason ends with how the --on-retry command after it ended.
func attemptRows(res *runner.Result, r reasoner) attemptTable {
	t := attemptTable{rows: make([]attemptRow, 0, len(res.Attempts))}
	for i := range res.Attempts {
		a := &res.Attempts[i]
		if i > 0 && a.Number != res.Attempts[i-1].Number+1 {
			t.gapAt = i
			t.gap = fmt.Sprintf("... %s not shown (%d to %d) ...", plural(res.Omitted(), "attempt"), res.Attempts[i-1].Number+1, a.Number-1)
		}
		row := attemptRow{
			attempt: fmt.Sprint(a.Number),
			at:      "+" + seconds(a.Started.Sub(res.Started)),
			took:    seconds(a.Duration),
			result:  describe(a),
			class:   a.Class.String(),
			wait:    "-",
			reason:  r.Reason(a.Reason),
		}
		var notes []string
		if a.HasHint {
			notes = append(notes, "hint "+seconds(a.Hint))
		}
		if a.HasDelay {
			row.wait = seconds(a.Delay)
			if a.BackoffReset {
				notes = append(notes, "backoff reset")
			}
		}
		if len(notes) > 0 {
			row.wait += " (" + strings.Join(notes, ", ") + ")"
		}
		if a.Hook != nil {
			// As in the progress line: the hook ran after this attempt.
			row.reason += "; " + r.Reason(describeHook(a.Hook))
		}
		t.rows = append(t.rows, row)
	}
	return t
}

// reasoner redacts a reason for display; *redact.Redactor is one.
type reasoner interface {
	Reason(string) string
}

// writeTable writes the attempts as an aligned table, each line prefixed
// "retry: " like every line of retry's own.
//
// The line in the gap of a run of many attempts is not a row: the columns
// are as wide as the attempts' on both sides of it.
func writeTable(w io.Writer, t attemptTable) {
	var b strings.Builder
	tw := tabwriter.NewWriter(&b, 0, 0, 2, ' ', 0)
	header := attemptRow{"attempt", "started", "took", "result", "class", "wait", "reason"}
	for i, r := range append([]attemptRow{header}, t.rows...) {
		if t.gap != "" && i == t.gapAt+1 {
			// Empty cells keep the column block whole; the line is
			// put in their place below.
			fmt.Fprint(tw, "\t\t\t\t\t\t\n")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.attempt, r.at, r.took, r.result, r.class, r.wait, r.reason)
	}
	tw.Flush()
	for i, line := range slices.Collect(strings.Lines(b.String())) {
		if t.gap != "" && i == t.gapAt+1 {
			line = t.gap + "\n"
		}
		fmt.Fprintf(w, "retry:   %s", line)
	}
}

// writeMarkdown writes the summary as GitHub-flavoured Markdown, for
// $GITHUB_STEP_SUMMARY: the operation's name and the command as a
// heading, the summary line, and the attempts as a table.
func writeMarkdown(w io.Writer, name string, command []string, line string, t attemptTable) {
	fmt.Fprintf(w, "### retry %s: %s\n\n%s\n\n", mdCell(name), codeSpan(shellQuote(command)), mdCell(line))
	fmt.Fprintln(w, "| attempt | started | took | result | class | wait | reason |")
	fmt.Fprintln(w, "|---:|---:|---:|---|---|---:|---|")
	for i, r := range t.rows {
		if t.gap != "" && i == t.gapAt {
			fmt.Fprintf(w, "| %s | | | | | | |\n", mdCell(t.gap))
		}
		fmt.Fprintf(w, "| %s | %s | %s | %s | %s | %s | %s |\n",
			r.attempt, r.at, r.took, mdCell(r.result), r.class, r.wait, mdCell(r.reason))
	}
	fmt.Fprintln(w)
}

// mdCell escapes text for a Markdown table cell: no pipe ends the cell
// early, no HTML or emphasis is interpreted.
func mdCell(s string) string {
	return strings.NewReplacer(
		`\`, `\\`, "|", `\|`, "<", "&lt;", ">", "&gt;", "&", "&amp;",
		"*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`,
	).Replace(s)
}

// codeSpan puts s in a Markdown code span, with a fence longer than any
// run of backticks in s.
func codeSpan(s string) string {
	fence := "`"
	for strings.Contains(s, fence) {
		fence += "`"
	}
	if strings.HasPrefix(s, "`") || strings.HasSuffix(s, "`") {
		s = " " + s + " "
	}
	return fence + s + fence
}

// shellQuote renders a command as one would type it to a POSIX shell,
// quoting the words that need it. Control characters are written as
// escapes so that the result is one line of plain text.
func shellQuote(argv []string) string {
	words := make([]string, len(argv))
	for i, a := range argv {
		words[i] = quoteWord(a)
	}
	return strings.Join(words, " ")
}

func quoteWord(s string) string {
	if s == "" {
		return "''"
	}
	plain, printable := true, true
	for _, c := range s {
		switch {
		case c < 0x20 || c == 0x7f || (c >= 0x80 && c < 0xa0):
			printable = false
		case !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("-_./:=@%+,", c)):
			plain = false
		}
	}
	if !printable {
		var b strings.Builder
		b.WriteString("$'")
		for _, c := range s {
			switch {
			case c == '\'' || c == '\\':
				b.WriteString(`\` + string(c))
			case c < 0x20 || c == 0x7f:
				fmt.Fprintf(&b, `\x%02x`, c)
			case c >= 0x80 && c < 0xa0:
				fmt.Fprintf(&b, `\u%04x`, c)
			default:
				b.WriteRune(c)
			}
		}
		return b.String() + "'"
	}
	if plain {
		return s
	}
	return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
}
