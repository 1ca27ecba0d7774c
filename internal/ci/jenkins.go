package ci

import "io"

// Jenkins is a Jenkins pipeline. Its log has no folds a script can make,
// and no annotations: attempts get their header lines.
type Jenkins struct{}

// Name implements System.
func (Jenkins) Name() string { return "jenkins" }

// Title implements System.
func (Jenkins) Title() string { return "Jenkins" }

// Detect implements System: JENKINS_URL holds the controller's URL
// ("only available if Jenkins URL is set in System Configuration").
// https://www.jenkins.io/doc/book/pipeline/jenkinsfile/#using-environment-variables
func (Jenkins) Detect(getenv func(string) string) bool { return getenv("JENKINS_URL") != "" }

// JobAttempt implements System: a pipeline's retry step reruns a block
// inside one build, and no variable counts its attempts (same page as
// Detect's); a rebuild is a new BUILD_NUMBER.
func (Jenkins) JobAttempt(func(string) string) int { return 0 }

// Folding implements System.
func (Jenkins) Folding() Folding { return NoFolds }

// BeginFold implements System: the header line.
func (Jenkins) BeginFold(w io.Writer, f Fold) { HeaderLine(w, f.Header) }

// EndFold implements System: nothing.
func (Jenkins) EndFold(io.Writer, Fold, bool) {}

// BeginSummary implements System: nothing.
func (Jenkins) BeginSummary(io.Writer, string) {}

// Annotator implements System: none.
func (Jenkins) Annotator(io.Writer, func(string) string) Annotator { return nil }

// Forms implements System.
func (Jenkins) Forms() Forms { return Forms{} }
