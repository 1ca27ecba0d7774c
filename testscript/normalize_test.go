//go:build unix

package testscript_test

import (
	"os"
	"regexp"

	"github.com/rogpeppe/go-internal/testscript"
)

// normalize FILE OUT writes to OUT the content of FILE (or stdout,
// stderr) without what changes from run to run, for cmp to compare with
// a golden file (and go test -u to update it): measured durations become
// <d>, times and process ids <t> and <pid>, escape characters <ESC> and
// <CR>. Waits chosen with --seed are durations too: scripts check them
// with a regular expression.
func normalizeCmd(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 2 {
		ts.Fatalf("usage: normalize file out")
	}
	if err := os.WriteFile(ts.MkAbs(args[1]), []byte(normalize(ts.ReadFile(args[0]))), 0o666); err != nil {
		ts.Fatalf("normalize: %v", err)
	}
}

// normalize applies the normalizers in order.
func normalize(s string) string {
	for _, n := range []struct{ re, with string }{
		{`\x1b`, "<ESC>"},
		{`\r`, "<CR>"},
		{`section_(start|end):[0-9]+:retry-([A-Za-z0-9_.-]+)-[0-9]+-attempt-`, "section_$1:<t>:retry-$2-<pid>-attempt-"},
		{`"(elapsed|duration|delay|deadline|hint)_ms": [0-9.e+]+`, `"${1}_ms": <ms>`},
		{`"started_at": "[^"]*"`, `"started_at": "<t>"`},
		{`\b[0-9]+(\.[0-9]+)?(ms|s|m|h)([0-9]+(\.[0-9]+)?(ms|s|m|h))*\b`, "<d>"},
	} {
		s = regexp.MustCompile(n.re).ReplaceAllString(s, n.with)
	}
	return s
}
