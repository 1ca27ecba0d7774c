package ci

import "io"

// CircleCI is CircleCI. Its step output has no folds a script can make,
// and no annotations: attempts get their header lines.
type CircleCI struct{}

// Name implements System.
func (CircleCI) Name() string { return "circleci" }

// Title implements System.
func (CircleCI) Title() string { return "CircleCI" }

// Detect implements System: CIRCLECI is "true" in a CircleCI job.
// https://circleci.com/docs/reference/variables/#built-in-environment-variables
func (CircleCI) Detect(getenv func(string) string) bool { return getenv("CIRCLECI") == "true" }

// JobAttempt implements System: a rerun is a new job with a new
// CIRCLE_BUILD_NUM, and no built-in variable counts reruns (same page as
// Detect's).
func (CircleCI) JobAttempt(func(string) string) int { return 0 }

// Folding implements System.
func (CircleCI) Folding() Folding { return NoFolds }

// BeginFold implements System: the header line.
func (CircleCI) BeginFold(w io.Writer, f Fold) { HeaderLine(w, f.Header) }

// EndFold implements System: nothing.
func (CircleCI) EndFold(io.Writer, Fold, bool) {}

// BeginSummary implements System: nothing.
func (CircleCI) BeginSummary(io.Writer, string) {}

// Annotator implements System: none.
func (CircleCI) Annotator(io.Writer, func(string) string) Annotator { return nil }

// Forms implements System.
func (CircleCI) Forms() Forms { return Forms{} }
