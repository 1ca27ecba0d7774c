// Command gen writes retry's man pages and CLI reference from its cobra
// command tree, and its preset reference from the presets, so that they
// always describe what the code defines. It is a step of the build, not
// API.
// From the repository's root:
//
//	go run ./docs/gen            # docs/man/*.1, docs/cli/*.md, docs/presets.md and the preset names in the docs
//	go run ./docs/gen -man DIR   # only the man pages, into DIR
//
// docs/presets.md, the preset reference, is written from the presets'
// definitions in runner/classify, and so are the lists of preset names in
// docs/manual.md and docs/classification.md, between their markers
// (presetNamesBegin). A test fails when the committed files differ from
// what it writes.
package main

import (
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/spf13/cobra"
	"github.com/spf13/cobra/doc"

	"github.com/b0a38808/retry/cmd"
)

func main() {
	man := flag.String("man", "", "write only the man pages, into `DIR`")
	flag.Parse()
	var err error
	if *man != "" {
		err = writeMan(tree(), *man)
	} else {
		err = writeAll(tree(), filepath.Join("docs", "man"), filepath.Join("docs", "cli"))
		if err == nil {
			err = writePresets(filepath.Join("docs", "presets.md"))
		}
		if err == nil {
			err = writePresetNames("docs")
		}
	}
	if err != nil {
		fmt.Fprintf(os.Stderr, "gen: %v\n", err)
		os.Exit(1)
	}
}

// tree returns the command tree to document, without the "Auto generated
// by spf13/cobra on DATE" lines, which would change every day.
func tree() *cobra.Command {
	root := cmd.CommandTree()
	var strip func(c *cobra.Command)
	strip = func(c *cobra.Command) {
		c.DisableAutoGenTag = true
		for _, sub := range c.Commands() {
			strip(sub)
		}
	}
	strip(root)
	return root
}

// manHeader returns the man pages' header. The date is fixed so that the
// pages change only when the commands do.
func manHeader() *doc.GenManHeader {
	date := time.Date(2026, time.November, 30, 0, 0, 0, 0, time.UTC)
	return &doc.GenManHeader{
		// No Title: each page is titled by its command's own name,
		// RETRY-EXPLAIN for retry explain.
		Section: "1",
		Source:  "retry",
		Manual:  "User Commands",
		Date:    &date,
	}
}

// writeMan writes one man page per command into dir, replacing the
// pages that are there, puts the flags in the sections of the help, and
// adds to retry(1) the sections that cobra does not know about.
func writeMan(root *cobra.Command, dir string) error {
	if err := clean(dir, "*.1"); err != nil {
		return err
	}
	if err := doc.GenManTree(root, manHeader(), dir); err != nil {
		return err
	}
	if err := fixOptions(root, dir); err != nil {
		return err
	}
	path := filepath.Join(dir, root.Name()+".1")
	page, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	before, after, ok := strings.Cut(string(page), ".SH SEE ALSO\n")
	if !ok {
		return fmt.Errorf("%s: no SEE ALSO section", path)
	}
	page = []byte(before + manExtra + manDebian() + ".SH SEE ALSO\n" + after)
	return os.WriteFile(path, page, 0o644)
}

// manExtra is the part of retry(1) that is not about flags. It follows
// docs/manual.md, which has the details.
const manExtra = `.SH EXIT STATUS
.TP
\fB0\fP
an attempt succeeded; with \fB\-\-until fail\fP, no run failed.
.TP
\fIthe last attempt's status\fP
retry gave up: a permanent failure, the attempts ran out, or the retry
budget is empty; with \fB\-\-until fail\fP, the status of the run that
failed.
.TP
\fB1\fP
the last attempt exited 0, but \fB\-\-fail\-if\fP matched its output.
.TP
\fB124\fP
the deadline, or the last attempt's timeout, ended the operation.
.TP
\fB125\fP
retry itself failed: bad flags or values (the command was not run), or an
internal error.
.TP
\fB126\fP
the command is not executable, or the last attempt could not start it for
the moment (text file busy).
.TP
\fB127\fP
the command was not found.
.TP
\fB128+N\fP
the last attempt died from signal N, or retry was cancelled by signal N;
retry then dies by signal N itself.

.SH ENVIRONMENT
Each attempt's environment carries:
.TP
\fBRETRY_ATTEMPT\fP
the attempt's number, from 1.
.TP
\fBRETRY_MAX_ATTEMPTS\fP
the number of attempts; 0 means unlimited.
.TP
\fBRETRY_IDEMPOTENCY_KEY\fP
one random UUID for the whole operation, or \fB\-\-idempotency\-key\fP.
.TP
\fBRETRY_DEADLINE\fP
the deadline in RFC 3339, UTC, with milliseconds; only when there is one.
.TP
\fBRETRY_DEPTH\fP
how many retry operations enclose the attempt.
.TP
\fBRETRY_SLOT\fP
the \fB\-\-max\-concurrent\fP slots the attempt runs in, its own and its
enclosing attempts'; only when there is one. A nested retry of the same
budget runs in its parent's slot.
.PP
retry itself reads \fBRETRY_DEPTH\fP: inside another retry it makes a
single attempt unless \fB\-\-nested\fP is given, and never outlives the
outer deadline. \fBRETRY_BUDGET_STORE\fP names the budget store when
\fB\-\-budget\fP is given without \fB\-\-budget\-store\fP.
\fBNO_COLOR\fP and \fBFORCE_COLOR\fP decide the colour of progress on a
terminal; \fBXDG_STATE_HOME\fP locates the state of retry budgets.

.SH EXAMPLES
A flaky download, five attempts, at most a minute in all:
.PP
.RS
.nf
retry \-a 5 \-d 1m \-\- curl \-fsS \-o release.tar.gz https://example.com/release.tar.gz
.fi
.RE
.PP
A CI step under a deadline, each attempt limited to two minutes:
.PP
.RS
.nf
retry \-a 3 \-d 10m \-t 2m \-\- make integration\-test
.fi
.RE
.PP
A cron job that keeps trying for up to an hour and leaves a JSON report:
.PP
.RS
.nf
retry \-a 0 \-d 1h \-\-delay 30s \-\-max\-delay 10m \-\-summary\-file /var/log/backup.json \-\- /usr/local/bin/backup
.fi
.RE
.PP
The same job, watched by Prometheus through node_exporter's textfile
collector: \fB\-\-metrics\-file\fP writes
\fBretry_last_success_timestamp_seconds{job="backup"}\fP and the other
\fBretry_last_*\fP gauges, so that "no success in 26 hours" is one alert:
.PP
.RS
.nf
retry \-\-name backup \-a 0 \-d 1h \-\-metrics\-file /var/lib/prometheus/node\-exporter/backup.prom \-\- /usr/local/bin/backup
.fi
.RE
.PP
A flaky test hunted down: run it again while it passes, up to 500 times
or 10 minutes, and stop at the first failure with its exit status:
.PP
.RS
.nf
retry \-\-until fail \-a 500 \-d 10m \-\- go test \-run TestFlaky ./pkg
.fi
.RE
.PP
What a plan will do, and whether the deadline can hold it, without running
anything (see \fBretry\-explain\fP(1)):
.PP
.RS
.nf
retry explain \-a 5 \-\-delay 1s \-\-max\-delay 4s \-d 10s \-\- make test
.fi
.RE

.SH NOTES
The full manual, with the classification rules, the JSON report and more
recipes, is at https://github.com/b0a38808/retry/blob/main/docs/manual.md;
the metrics and their alert rules are in docs/metrics.md beside it.

`

// writeAll writes the man pages into manDir and the Markdown reference
// into cliDir, the flags of both in the sections of the help.
func writeAll(root *cobra.Command, manDir, cliDir string) error {
	if err := writeMan(root, manDir); err != nil {
		return err
	}
	if err := clean(cliDir, "*.md"); err != nil {
		return err
	}
	if err := doc.GenMarkdownTree(root, cliDir); err != nil {
		return err
	}
	return fixMarkdownOptions(root, cliDir)
}

// clean creates dir and removes the files in it that match pattern, so
// that the page of a removed command does not linger.
func clean(dir, pattern string) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	old, err := filepath.Glob(filepath.Join(dir, pattern))
	if err != nil {
		return err
	}
	for _, f := range old {
		if err := os.Remove(f); err != nil {
			return err
		}
	}
	return nil
}
