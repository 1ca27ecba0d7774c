package ci

import (
	"fmt"
	"io"
)

// GitLab is GitLab CI/CD.
type GitLab struct{}

// Name implements System.
func (GitLab) Name() string { return "gitlab" }

// Title implements System.
func (GitLab) Title() string { return "GitLab CI" }

// Detect implements System: GITLAB_CI is "true" "for all jobs executed
// in CI/CD".
// https://docs.gitlab.com/ci/variables/predefined_variables/
func (GitLab) Detect(getenv func(string) string) bool { return getenv("GITLAB_CI") == "true" }

// JobAttempt implements System: none of GitLab's predefined variables
// (same page as Detect's) tells a retried job from its first run.
func (GitLab) JobAttempt(func(string) string) int { return 0 }

// Folding implements System: a section can be left open.
func (GitLab) Folding() Folding { return OpenFolds }

// BeginFold implements System with a section's start marker,
// "\e[0Ksection_start:UNIX_TIMESTAMP:SECTION_NAME[collapsed=false]\r\e[0K"
// and its header. GitLab reads these escape sequences from the log
// whether or not it is a terminal.
// https://docs.gitlab.com/ci/jobs/job_logs/#custom-collapsible-sections
func (GitLab) BeginFold(w io.Writer, f Fold) {
	fmt.Fprintf(w, "\x1b[0Ksection_start:%d:%s[collapsed=false]\r\x1b[0K%s\n", f.At.Unix(), f.ID, f.Header)
}

// EndFold implements System with the section's end marker,
// "\e[0Ksection_end:UNIX_TIMESTAMP:SECTION_NAME\r\e[0K" (same page as
// BeginFold's), on a line of its own: the attempt's output may lack its
// last newline, and glued to it, the marker's "\r\e[0K" would hide that
// line.
func (GitLab) EndFold(w io.Writer, f Fold, _ bool) {
	fmt.Fprintf(w, "\n\x1b[0Ksection_end:%d:%s\r\x1b[0K\n", f.At.Unix(), f.ID)
}

// BeginSummary implements System: a section has an end.
func (GitLab) BeginSummary(io.Writer, string) {}

// Annotator implements System: GitLab has no annotations a job can make.
func (GitLab) Annotator(io.Writer, func(string) string) Annotator { return nil }

// Forms implements System.
func (GitLab) Forms() Forms { return Forms{Fold: "collapsible sections, left open"} }
