// Package ci knows the CI systems retry runs under, one file each: how a
// system is detected from its own variables, how an attempt's output is
// marked in its job log, how an annotation is made on its page, and how
// it tells its own attempt of the job. Adding a CI means adding a file
// and naming it in Systems. It is internal: other Go programs cannot
// import it.
package ci

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"
	"time"
)

// System is one CI system.
type System interface {
	// Name is the system's value of --ci: "github".
	Name() string
	// Title is the system's own name: "GitHub Actions".
	Title() string
	// Detect reports whether getenv's variables say that this system
	// runs the job. It reads one or two variables and nothing else, so
	// that detection costs nothing outside CI.
	Detect(getenv func(string) string) bool
	// JobAttempt is the system's own attempt of the job, 1 for the
	// first; 0 when the system does not say.
	JobAttempt(getenv func(string) string) int
	// Folding is how the system's job log folds.
	Folding() Folding
	// BeginFold writes the line that opens the fold of an attempt.
	BeginFold(w io.Writer, f Fold)
	// EndFold writes what closes the fold f; failed: its attempt failed
	// and no other follows it.
	EndFold(w io.Writer, f Fold, failed bool)
	// BeginSummary writes, before retry's summary, what keeps it out of
	// the last attempt's fold; most systems need nothing.
	BeginSummary(w io.Writer, header string)
	// Annotator returns what makes the system's annotations in a run,
	// writing to w (retry's stderr) where the system reads them there;
	// nil when the system has none.
	Annotator(w io.Writer, getenv func(string) string) Annotator
	// Forms names, for retry explain, the forms the system's marks take.
	Forms() Forms
}

// Forms names the forms of a system's marks, for people; "" for a mark
// the system does not have.
type Forms struct {
	Fold       string // "sections"
	Annotation string // "::warning workflow commands"
	JobAttempt string // the variable the job attempt is read from
}

// Systems returns every CI system retry knows, in the order auto
// detection asks them.
func Systems() []System {
	return []System{GitHub{}, GitLab{}, Azure{}, Buildkite{}, Jenkins{}, CircleCI{}}
}

// Names is the values of --ci.
func Names() []string {
	names := []string{"auto"}
	for _, s := range Systems() {
		names = append(names, s.Name())
	}
	return append(names, "none")
}

// Detect returns the system whose variables getenv sees, nil for none.
func Detect(getenv func(string) string) System {
	for _, s := range Systems() {
		if s.Detect(getenv) {
			return s
		}
	}
	return nil
}

// Named returns the system that --ci names: one by its name, the
// detected one for "auto", nil for "none"; ok is false for a name that
// is none of them.
func Named(name string, getenv func(string) string) (s System, ok bool) {
	switch name {
	case "auto":
		return Detect(getenv), true
	case "none":
		return nil, true
	}
	for _, s := range Systems() {
		if s.Name() == name {
			return s, true
		}
	}
	return nil, false
}

// Folding is how a job log folds.
type Folding int

// The ways a job log folds.
const (
	// NoFolds: the log has no folds; an attempt gets its header line.
	NoFolds Folding = iota
	// OpenFolds: a fold can be left open, so that folding attempts
	// still shows the last one without a click (GitLab, Buildkite).
	OpenFolds
	// ShutFolds: a fold is always shown shut and cannot be opened by
	// the job afterwards (GitHub, Azure): folds there are opt-in.
	ShutFolds
)

// Groups is --ci-groups: when each attempt's output is a fold.
type Groups string

// The values of --ci-groups.
const (
	GroupsAuto   Groups = "auto"   // where a fold can stay open
	GroupsAlways Groups = "always" // wherever the log folds
	GroupsNone   Groups = "none"   // never: header lines only
)

// ParseGroups reads --ci-groups.
func ParseGroups(s string) (Groups, error) {
	switch g := Groups(s); g {
	case GroupsAuto, GroupsAlways, GroupsNone:
		return g, nil
	}
	return "", fmt.Errorf("must be always, auto or none, got %q", s)
}

// Folds reports whether s folds each attempt's output under g.
func Folds(s System, g Groups) bool {
	switch s.Folding() {
	case OpenFolds:
		return g != GroupsNone
	case ShutFolds:
		return g == GroupsAlways
	}
	return false
}

// Fold is one attempt's fold of a job log.
type Fold struct {
	// ID names the fold where the system needs a name: unique in a job
	// log, of letters, digits, "_", "-" and ".".
	ID string
	// Header is the attempt's header line, made by Header: one line,
	// without its newline, the same on every system. The systems write
	// it as it is.
	Header string
	// At is when the fold begins or ends.
	At time.Time
}

// Header is the line that begins an attempt on every CI: "retry NAME:
// attempt 2/3: COMMAND", or "run 2/50" when running until a failure.
// of is "2/3", or "2" when attempts are unlimited. The line breaks of
// its parts are spaces in it, so that it stays one line in every marker.
func Header(name string, until bool, of, command string) string {
	noun := "attempt"
	if until {
		noun = "run"
	}
	return oneLine(fmt.Sprintf("retry %s: %s %s: %s", name, noun, of, command))
}

// HeaderLine writes header, made by Header, as a line of its own, where a system cannot
// fold or a fold is not wanted.
func HeaderLine(w io.Writer, header string) {
	fmt.Fprintf(w, "%s\n", header)
}

// oneLine keeps s on one line: a line break in it would end a marker.
func oneLine(s string) string {
	return strings.NewReplacer("\r", " ", "\n", " ").Replace(s)
}

// Annotator makes a CI system's annotations for one run.
type Annotator interface {
	// Warn makes text, said of the operation called name, a warning
	// annotation on the CI's page. The caller bounds ctx by the
	// operation's deadline. An error is for a warning line: it never
	// fails the run.
	Warn(ctx context.Context, name, text string) error
}

// MaxAnnotations is how many annotations a run makes at most: GitHub
// Actions shows 10 a step. The tenth is held for the end of the run.
const MaxAnnotations = 10

// attempt reads a job attempt from a variable that holds a count; base
// is added to it (1 for a count of retries). 0 when the value is none.
func attempt(value string, base int) int {
	n, err := strconv.Atoi(value)
	if err != nil || n < 0 {
		return 0
	}
	return n + base
}

// Describe says what retry writes on s, for retry explain: the header
// lines or folds (folds), the annotations (annotate), and the job
// attempt, jobAttempt (0 when s does not say).
func Describe(s System, folds, annotate bool, jobAttempt int) []string {
	f := s.Forms()
	var lines []string
	switch {
	case folds:
		lines = append(lines, fmt.Sprintf("each attempt's output is a fold of the log (%s), begun by its header line", f.Fold))
	case f.Fold != "" && s.Folding() == ShutFolds:
		lines = append(lines, fmt.Sprintf("each attempt begins with a header line on stderr (--ci-groups always makes each a fold of the log: %s, shown shut)", f.Fold))
	default:
		lines = append(lines, "each attempt begins with a header line on stderr")
	}
	switch {
	case f.Annotation == "":
	case annotate:
		lines = append(lines, fmt.Sprintf("each retried attempt, and a flaky pass, is a warning annotation (%s), at most %d a run (--ci-annotations none makes none)", f.Annotation, MaxAnnotations))
	default:
		lines = append(lines, "no annotations (--ci-annotations none)")
	}
	switch {
	case f.JobAttempt == "":
		lines = append(lines, s.Title()+" does not tell its own attempt of the job")
	case jobAttempt > 0:
		lines = append(lines, fmt.Sprintf("this is %s's attempt %d of the job (%s), which the report and the summary record", s.Title(), jobAttempt, f.JobAttempt))
	default:
		lines = append(lines, fmt.Sprintf("%s says nothing of its attempt of the job (%s is not set)", s.Title(), f.JobAttempt))
	}
	return lines
}
