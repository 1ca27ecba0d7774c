package ci

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// GitHub is GitHub Actions. Its runner reads workflow commands from a
// step's stderr as well as its stdout; a command must begin its line.
type GitHub struct{}

// Name implements System.
func (GitHub) Name() string { return "github" }

// Title implements System.
func (GitHub) Title() string { return "GitHub Actions" }

// Detect implements System: GITHUB_ACTIONS is "true" "when GitHub Actions
// is running the workflow".
// https://docs.github.com/en/actions/reference/workflows-and-actions/variables#default-environment-variables
func (GitHub) Detect(getenv func(string) string) bool { return getenv("GITHUB_ACTIONS") == "true" }

// JobAttempt implements System: GITHUB_RUN_ATTEMPT "begins with 1 for
// the workflow run's first attempt and increments with each re-run"
// (same page as Detect's).
func (GitHub) JobAttempt(getenv func(string) string) int {
	return attempt(getenv("GITHUB_RUN_ATTEMPT"), 0)
}

// Folding implements System: a group is shown shut.
func (GitHub) Folding() Folding { return ShutFolds }

// BeginFold implements System with "::group::TITLE".
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#grouping-log-lines
func (GitHub) BeginFold(w io.Writer, f Fold) {
	fmt.Fprintf(w, "::group::%s\n", githubEscape(f.Header))
}

// EndFold implements System with "::endgroup::" on a line of its own:
// the attempt's output may lack its last newline (same page as
// BeginFold's).
func (GitHub) EndFold(w io.Writer, _ Fold, _ bool) {
	io.WriteString(w, "\n::endgroup::\n")
}

// BeginSummary implements System: a group has an end, the summary is
// outside it already.
func (GitHub) BeginSummary(io.Writer, string) {}

// Annotator implements System.
func (GitHub) Annotator(w io.Writer, _ func(string) string) Annotator { return githubWarnings{w} }

// Forms implements System.
func (GitHub) Forms() Forms {
	return Forms{Fold: "::group:: groups", Annotation: "::warning workflow commands", JobAttempt: "GITHUB_RUN_ATTEMPT"}
}

// StepSummary returns the file whose Markdown s shows on the run's page:
// under GitHub Actions, GITHUB_STEP_SUMMARY; "" when there is none, and
// on every other system.
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#adding-a-job-summary
func StepSummary(s System, getenv func(string) string) string {
	if _, ok := s.(GitHub); ok {
		return getenv("GITHUB_STEP_SUMMARY")
	}
	return ""
}

// githubWarnings makes warning annotations.
type githubWarnings struct{ w io.Writer }

// Warn writes "::warning title=retry NAME::TEXT".
// https://docs.github.com/en/actions/reference/workflows-and-actions/workflow-commands#setting-a-warning-message
func (g githubWarnings) Warn(_ context.Context, name, text string) error {
	fmt.Fprintf(g.w, "::warning title=%s::%s\n", githubProperty("retry "+name), githubEscape(text))
	return nil
}

// githubProperty escapes a property value of a workflow command, as the
// Actions toolkit does.
func githubProperty(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A", ":", "%3A", ",", "%2C").Replace(s)
}

// githubEscape escapes the message of a workflow command, as the Actions
// toolkit does, so that it stays one command.
func githubEscape(s string) string {
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}
