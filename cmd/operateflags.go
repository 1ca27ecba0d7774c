package cmd

import (
	"fmt"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/internal/redact"
)

// operateOptions are the flags for the people who run retry from cron and
// CI (docs/metrics.md, docs/ci.md): the operation's name, the metrics
// file, and what retry writes under a CI system and exits with there.
type operateOptions struct {
	name          string
	metricsFile   string
	ci            string
	ciGroups      string
	ciAnnotations string
	flakyExit     string
	exhaustedExit string
}

// register declares the flags on fs.
func (o *operateOptions) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.name, "name", "", "name the operation `NAME` (letters, digits, _, - and ., at most 64; one that holds a secret is refused) in the report, the metrics and CI annotations (default: the program's base name, past VAR=value words, without secrets)")
	fs.StringVar(&o.metricsFile, "metrics-file", "", "write Prometheus metrics for node_exporter's textfile collector to `PATH` when the operation ends (atomically, mode 0644)")
	fs.StringVar(&o.ci, "ci", "auto", "speak the language of CI `SYSTEM`: auto (detected from its variables), github, gitlab, azure, buildkite, jenkins, circleci, or none (plain output only)")
	fs.StringVar(&o.ciGroups, "ci-groups", "auto", "fold each attempt's output in the CI's log, `MODE`: auto (where the last attempt stays open: GitLab, Buildkite), always (GitHub and Azure too, where folds show shut), or none (a header line only)")
	fs.StringVar(&o.ciAnnotations, "ci-annotations", "auto", "`MODE`: auto makes each retried attempt and a flaky pass a warning annotation where the CI has them (GitHub, Azure, Buildkite), at most 10 a run; none makes none")
	fs.StringVar(&o.flakyExit, "flaky-exit", "", "exit with `N` (1-123) instead of 0 when an attempt succeeded after a failed one (a flaky pass), for the CI to show as passed with warnings")
	fs.StringVar(&o.exhaustedExit, "exhausted-exit", "", "exit with `N` (1-123) when the attempts or the retry budget ran out on a retryable failure, for the CI's own job retry to rerun transient failures only")
}

// maxName is the longest --name.
const maxName = 64

// check checks the flags and returns --name, or "" for the default,
// which defaultName makes when it is needed. r hides secrets, as
// everywhere the name is shown: a --name that holds one is bad input.
// probe: try creating a file beside --metrics-file (checkOutputPath).
func (o *operateOptions) check(fs *pflag.FlagSet, r *redact.Redactor, probe bool) (string, error) {
	if o.ciAnnotations != "auto" && o.ciAnnotations != "none" {
		return "", usagef("none turns the CI's annotations off; the GitHub step summary stays", "--ci-annotations: must be auto or none, got %q", o.ciAnnotations)
	}
	if o.metricsFile != "" {
		if err := checkOutputPath("--metrics-file", o.metricsFile, "retry.prom", probe); err != nil {
			return "", err
		}
	} else if fs != nil && fs.Changed("metrics-file") {
		return "", usagef("", "--metrics-file: must not be empty")
	}
	if o.name == "" {
		if fs != nil && fs.Changed("name") {
			return "", usagef("", "--name: must not be empty")
		}
		return "", nil
	}
	if err := validName(o.name); err != nil {
		return "", usagef("use letters, digits, _, - and ., such as nightly-backup", "--name: %s", err)
	}
	if shown := r.Text(o.name); shown != o.name {
		// Refused, not redacted: a name that changed would split the
		// metrics and the alerts that select it.
		return "", usagef("the name is shown in the report, the metrics and CI annotations: choose one that holds no secret",
			"--name: %q holds what retry hides as a secret", shown)
	}
	return o.name, nil
}

// validName reports why s cannot name an operation.
func validName(s string) error {
	if len(s) > maxName {
		return fmt.Errorf("at most %d characters, got %d", maxName, len(s))
	}
	for _, c := range s {
		if !nameChar(c) {
			return fmt.Errorf("%q is not allowed in %q", c, s)
		}
	}
	return nil
}

func nameChar(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// defaultName names an operation that runs command: the base name of its
// program, the first word that is not a VAR=value assignment, made a valid
// name (each other character becomes "_", cut to 64 bytes). It never holds
// what r would hide: the name is made from the word as r shows it, without
// the masks, and one that still shows a secret is "retry".
func defaultName(command []string, r *redact.Redactor) string {
	shown := r.Args(command)
	for i, word := range command {
		if assignment(word) {
			continue
		}
		name := validated(baseName(word))
		if shown[i] != word {
			// The base name as shown, without its masks, and what they
			// leave at either end: "https://***@host/" is "host".
			name = strings.Trim(validated(strings.ReplaceAll(baseName(shown[i]), redact.Mask, "")), "_-.")
		}
		if name != "" && r.Text(name) == name {
			return name
		}
		break
	}
	return "retry"
}

// assignment reports whether word is a VAR=value assignment, as env(1)
// and shells read one before a command: the name of a variable, then "=".
func assignment(word string) bool {
	name, _, ok := strings.Cut(word, "=")
	if !ok || name == "" || name[0] >= '0' && name[0] <= '9' {
		return false
	}
	for _, c := range name {
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_') {
			return false
		}
	}
	return true
}

// baseName is the base name of path, the Unix or the Windows way.
func baseName(path string) string {
	base := filepath.Base(strings.TrimRight(path, `/\`))
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:] // a Windows path read on Unix, or the reverse
	}
	return base
}

// validated makes base a valid name, or "" when there is none: each
// character other than those of a name becomes "_", and it is cut to 64
// bytes.
func validated(base string) string {
	name := strings.Map(func(c rune) rune {
		if nameChar(c) {
			return c
		}
		return '_'
	}, base)
	if len(name) > maxName {
		name = name[:maxName]
	}
	if name == "." {
		return ""
	}
	return name
}
