package ci

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os/exec"
	"strings"
	"time"
)

// Buildkite is Buildkite. Its log folds into groups that have no end
// marker: a group runs until the next one begins.
type Buildkite struct{}

// Name implements System.
func (Buildkite) Name() string { return "buildkite" }

// Title implements System.
func (Buildkite) Title() string { return "Buildkite" }

// Detect implements System: BUILDKITE is "true" in every job.
// https://buildkite.com/docs/pipelines/configure/environment-variables
func (Buildkite) Detect(getenv func(string) string) bool { return getenv("BUILDKITE") == "true" }

// JobAttempt implements System: BUILDKITE_RETRY_COUNT counts the times
// the job was retried, 0 on its first run (same page as Detect's).
func (Buildkite) JobAttempt(getenv func(string) string) int {
	return attempt(getenv("BUILDKITE_RETRY_COUNT"), 1)
}

// Folding implements System: with no group opened by "+++", Buildkite
// opens the last "---" group, and "^^^ +++" opens the one before it.
func (Buildkite) Folding() Folding { return OpenFolds }

// BeginFold implements System with "--- TITLE", a group shown shut.
// https://buildkite.com/docs/pipelines/configure/managing-log-output#grouping-log-output
func (Buildkite) BeginFold(w io.Writer, f Fold) {
	fmt.Fprintf(w, "--- %s\n", f.Header)
}

// EndFold implements System: after the last attempt that failed,
// "^^^ +++", which opens the group before it (same page as BeginFold's),
// on a line of its own.
func (Buildkite) EndFold(w io.Writer, _ Fold, failed bool) {
	if failed {
		io.WriteString(w, "\n^^^ +++\n")
	}
}

// BeginSummary implements System: a group of its own, shown open
// ("+++ TITLE", same page as BeginFold's), so that the summary does not
// fall into the last attempt's group.
func (Buildkite) BeginSummary(w io.Writer, header string) {
	fmt.Fprintf(w, "\n+++ %s\n", oneLine(header))
}

// Annotator implements System: annotations made by the agent, when
// buildkite-agent is on PATH.
func (Buildkite) Annotator(_ io.Writer, getenv func(string) string) Annotator {
	return &buildkiteAnnotation{job: getenv("BUILDKITE_JOB_ID")}
}

// Forms implements System.
func (Buildkite) Forms() Forms {
	return Forms{Fold: "--- groups, the last failed one opened", Annotation: "buildkite-agent annotate, one per operation, when the agent is on PATH", JobAttempt: "BUILDKITE_RETRY_COUNT"}
}

// AgentTimeout bounds each call of buildkite-agent.
const AgentTimeout = 2 * time.Second

// buildkiteAnnotation is the one annotation of an operation, made again
// with each warning: "buildkite-agent annotate" replaces the annotation
// of the same context. The context holds BUILDKITE_JOB_ID, so that the
// jobs of a parallel step do not replace each other's.
// https://buildkite.com/docs/agent/cli/reference/annotate
type buildkiteAnnotation struct {
	job   string
	lines []string
	agent string // the agent's path; "" before the first look
	none  bool   // the agent is not on PATH
}

// Warn adds text to the operation's annotation and has the agent make
// it again, its body on stdin, in at most AgentTimeout.
func (b *buildkiteAnnotation) Warn(ctx context.Context, name, text string) error {
	if b.none {
		return nil
	}
	if b.agent == "" {
		path, err := exec.LookPath("buildkite-agent")
		if err != nil {
			b.none = true
			return nil
		}
		b.agent = path
	}
	b.lines = append(b.lines, text)
	ctx, cancel := context.WithTimeout(ctx, AgentTimeout)
	defer cancel()
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("buildkite-agent annotate: not run: %w", err)
	}
	cmd := exec.CommandContext(ctx, b.agent, "annotate", "--style", "warning", "--context", buildkiteContext(name, b.job))
	cmd.Stdin = strings.NewReader(buildkiteBody(name, b.lines))
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	cmd.WaitDelay = 100 * time.Millisecond
	err := cmd.Run()
	switch {
	case err == nil:
		return nil
	case errors.Is(ctx.Err(), context.DeadlineExceeded):
		return fmt.Errorf("buildkite-agent annotate: gave up after %s", AgentTimeout)
	case ctx.Err() != nil:
		return fmt.Errorf("buildkite-agent annotate: %w", ctx.Err())
	}
	msg := strings.TrimSpace(stderr.String())
	if i := strings.IndexByte(msg, '\n'); i >= 0 {
		msg = msg[:i]
	}
	if msg != "" {
		return fmt.Errorf("buildkite-agent annotate: %v: %s", err, msg)
	}
	return fmt.Errorf("buildkite-agent annotate: %v", err)
}

// buildkiteContext names the annotation of the operation called name in
// job: "retry-NAME-JOB".
func buildkiteContext(name, job string) string {
	if job == "" {
		return "retry-" + name
	}
	return "retry-" + name + "-" + job
}

// buildkiteBody is the annotation's Markdown: the operation, then a
// list item for each warning.
func buildkiteBody(name string, lines []string) string {
	var b strings.Builder
	fmt.Fprintf(&b, "**retry %s**\n\n", markdownText(name))
	for _, l := range lines {
		fmt.Fprintf(&b, "- %s\n", markdownText(l))
	}
	return b.String()
}

// markdownText escapes text for Markdown, so that none of it is read as
// HTML, emphasis or a link.
func markdownText(s string) string {
	return strings.NewReplacer(
		`\`, `\\`, "<", "&lt;", ">", "&gt;", "&", "&amp;",
		"*", `\*`, "_", `\_`, "`", "\\`", "[", `\[`, "]", `\]`, "\n", " ", "\r", " ",
	).Replace(s)
}
