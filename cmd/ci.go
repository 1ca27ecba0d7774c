package cmd

import (
	"fmt"
	"io"
	"strings"
	"time"

	"github.com/b0a38808/retry/runner"
)

// A flaky CI step that passes on its second attempt looks green: these
// forms make it visible on the CI page. GitHub Actions shows a warning
// annotation for each retried attempt and the summary on the run's page;
// GitLab CI folds each attempt's output in a section of the job log.

// ci is the CI system retry runs under, from the variables each sets.
type ci struct {
	github      bool   // GITHUB_ACTIONS=true
	annotations bool   // github, and --ci-annotations auto
	stepSummary string // $GITHUB_STEP_SUMMARY: a file the summary is appended to
	gitlab      bool   // GITLAB_CI=true
}

// detectCI returns the CI system that getenv's variables name;
// annotations is --ci-annotations auto.
func detectCI(getenv func(string) string, annotations bool) ci {
	c := ci{github: getenv("GITHUB_ACTIONS") == "true", gitlab: getenv("GITLAB_CI") == "true"}
	if c.github {
		c.annotations = annotations
		c.stepSummary = getenv("GITHUB_STEP_SUMMARY")
	}
	return c
}

// explainNote is what retry explain says of the annotations: under
// GitHub Actions, whether retried attempts become annotations; elsewhere,
// when --ci-annotations was given, where they are made. "" otherwise.
func (c ci) explainNote(given bool) string {
	switch {
	case c.annotations:
		return fmt.Sprintf("GitHub Actions: each retried attempt is a warning annotation, at most %d a run, the last counting those left out (--ci-annotations none makes none)", maxAnnotations)
	case c.github:
		return "GitHub Actions: retried attempts are not annotated (--ci-annotations none)"
	case given:
		return "--ci-annotations: annotations are made under GitHub Actions only (GITHUB_ACTIONS=true)"
	}
	return ""
}

// maxAnnotations is how many warning annotations GitHub Actions shows for
// a step: a run writes no more.
const maxAnnotations = 10

// annotations counts a run's warning annotations: the first nine are
// written as they come; the tenth is held until the run ends, and then
// written, or replaced by one that counts the attempts left out.
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
	case n.made < maxAnnotations:
		githubWarning(p.w, p.name(), text)
	case n.made == maxAnnotations:
		n.held, n.first = text, a.Number
	}
	n.last = a.Number
}

// flushAnnotations writes, when the run ends, its last annotation: the
// tenth retried attempt's, or one that counts those from the tenth on.
// omitted is how many attempts the Result, and so the step summary,
// leaves out (runner.Result.Omitted).
func (p *reporter) flushAnnotations(omitted int) {
	n := &p.annotated
	switch {
	case n.made == maxAnnotations:
		githubWarning(p.w, p.name(), n.held)
	case n.made > maxAnnotations:
		msg := fmt.Sprintf("%d more retried attempts, %d to %d, are not annotated: GitHub shows %d annotations a step", n.made-maxAnnotations+1, n.first, n.last, maxAnnotations)
		switch {
		case p.ci.stepSummary == "":
		case omitted == 0:
			msg += "; the step summary lists every attempt"
		default:
			msg += fmt.Sprintf("; the step summary lists the first %d and the last %d attempts", runner.KeepFirst, runner.KeepLast)
		}
		githubWarning(p.w, p.name(), msg)
	}
	*n = annotations{} // finish may run once more, on retry's own failure
}

// githubWarning writes a workflow command that GitHub Actions turns into a
// warning annotation titled "retry NAME". The runner reads workflow
// commands from stderr as well as stdout; the line must start with "::".
func githubWarning(w io.Writer, name, msg string) {
	fmt.Fprintf(w, "::warning title=%s::%s\n", githubProperty("retry "+name), githubEscape(msg))
}

// githubProperty escapes a property value of a workflow command.
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// githubEscape escapes the message of a workflow command, as the Actions
// toolkit does, so that it stays one command.
func githubEscape(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// gitlabSectionStart opens a collapsible section of a GitLab job log,
// titled header. GitLab reads these escape sequences from the log whether
// or not it is a terminal; they are the only ones retry writes to a
// non-terminal, and only under GITLAB_CI=true.
func gitlabSectionStart(w io.Writer, name, header string, now time.Time) {
	fmt.Fprintf(w, "\x1b[0Ksection_start:%d:%s\r\x1b[0K%s\n", now.Unix(), name, header)
}

// gitlabSectionEnd closes the section opened by gitlabSectionStart, on a
// line of its own: the attempt's output may lack a final newline, and
// retry does not read every stream it writes (a command writes to a
// terminal or a shared log directly), so it cannot tell. Glued to the
// output, the marker's "\r\x1b[0K" would hide that line.
func gitlabSectionEnd(w io.Writer, name string, now time.Time) {
	fmt.Fprintf(w, "\n\x1b[0Ksection_end:%d:%s\r\x1b[0K\n", now.Unix(), name)
}

// gitlabSection names the section of attempt n of the operation called
// name: unique in a job log even when several retry commands run in one
// job. A name holds only characters a section name may.
func gitlabSection(name string, pid, n int) string {
	return fmt.Sprintf("retry-%s-%d-attempt-%d", name, pid, n)
}
