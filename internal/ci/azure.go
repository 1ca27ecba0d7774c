package ci

import (
	"context"
	"fmt"
	"io"
	"strings"
)

// Azure is Azure Pipelines. Its agent reads logging commands from the
// lines a script writes; retry writes them on stderr, with its own lines.
//
// retry never writes "##vso[task.complete]": the agent ends the whole
// task some seconds after it, abandoning the script lines that follow.
// A pipeline that wants SucceededWithIssues sets it itself, from
// --flaky-exit's status.
type Azure struct{}

// Name implements System.
func (Azure) Name() string { return "azure" }

// Title implements System.
func (Azure) Title() string { return "Azure Pipelines" }

// Detect implements System: TF_BUILD is "True" when a build task runs
// the script (Azure's spelling, capital T).
// https://learn.microsoft.com/en-us/azure/devops/pipelines/build/variables#system-variables
func (Azure) Detect(getenv func(string) string) bool { return getenv("TF_BUILD") == "True" }

// JobAttempt implements System: System.JobAttempt, SYSTEM_JOBATTEMPT in
// the environment, is 1 the first time the job is attempted and grows
// with each retry (same page as Detect's).
func (Azure) JobAttempt(getenv func(string) string) int {
	return attempt(getenv("SYSTEM_JOBATTEMPT"), 0)
}

// Folding implements System: a group is shown shut.
func (Azure) Folding() Folding { return ShutFolds }

// BeginFold implements System with the formatting command
// "##[group]TITLE".
// https://learn.microsoft.com/en-us/azure/devops/pipelines/scripts/logging-commands#formatting-commands
func (Azure) BeginFold(w io.Writer, f Fold) {
	fmt.Fprintf(w, "##[group]%s\n", f.Header)
}

// EndFold implements System with "##[endgroup]" on a line of its own
// (same page as BeginFold's).
func (Azure) EndFold(w io.Writer, _ Fold, _ bool) {
	io.WriteString(w, "\n##[endgroup]\n")
}

// BeginSummary implements System: a group has an end.
func (Azure) BeginSummary(io.Writer, string) {}

// Annotator implements System.
func (Azure) Annotator(w io.Writer, _ func(string) string) Annotator { return azureIssues{w} }

// Forms implements System.
func (Azure) Forms() Forms {
	return Forms{Fold: "##[group] groups", Annotation: "##vso[task.logissue type=warning]", JobAttempt: "SYSTEM_JOBATTEMPT"}
}

// azureIssues makes warning issues, which the run's summary page lists.
type azureIssues struct{ w io.Writer }

// Warn writes "##vso[task.logissue type=warning]retry NAME: TEXT".
// https://learn.microsoft.com/en-us/azure/devops/pipelines/scripts/logging-commands#logissue-log-an-error-or-warning
func (a azureIssues) Warn(_ context.Context, name, text string) error {
	fmt.Fprintf(a.w, "##vso[task.logissue type=warning]%s\n", azureEscape("retry "+name+": "+text))
	return nil
}

// azureEscape escapes a logging command's message so that it stays one
// command: "%" is "%AZP25", CR "%0D" and LF "%0A".
// https://learn.microsoft.com/en-us/azure/devops/pipelines/scripts/logging-commands#logging-command-format
func azureEscape(s string) string {
	return strings.NewReplacer("%", "%AZP25", "\r", "%0D", "\n", "%0A").Replace(s)
}
