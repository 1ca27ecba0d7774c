package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/b0a38808/retry/cmd"
)

// TestOptionsInSections checks that retry(1) and docs/cli/retry.md show
// the flags in the sections of retry --help, in their order, each flag
// under its own section's heading.
func TestOptionsInSections(t *testing.T) {
	tmp := t.TempDir()
	man, cli := filepath.Join(tmp, "man"), filepath.Join(tmp, "cli")
	root := tree()
	if err := writeAll(root, man, cli); err != nil {
		t.Fatal(err)
	}
	sections := cmd.FlagSections(root)
	if len(sections) < 7 {
		t.Fatalf("retry has %d flag sections, want at least 7", len(sections))
	}
	for _, page := range []struct {
		path    string
		heading func(title string) string
		entry   func(name string) string
	}{
		{filepath.Join(man, "retry.1"), func(s string) string { return ".SS " + s + "\n" }, func(n string) string { return `\fB` + roff("--"+n) + `\fP` }},
		{filepath.Join(cli, "retry.md"), func(s string) string { return "#### " + s + "\n" }, func(n string) string { return "--" + n + " " }},
	} {
		data, err := os.ReadFile(page.path)
		if err != nil {
			t.Fatal(err)
		}
		text := string(data)
		var titles []string
		for _, s := range sections {
			titles = append(titles, regexp.QuoteMeta(page.heading(s.Title)))
		}
		if !regexp.MustCompile(`(?s)` + strings.Join(titles, ".*")).MatchString(text) {
			t.Errorf("%s lacks the sections in the order of retry --help", filepath.Base(page.path))
			continue
		}
		for i, s := range sections {
			part := text[strings.Index(text, page.heading(s.Title)):]
			if i+1 < len(sections) {
				part = part[:strings.Index(part, page.heading(sections[i+1].Title))]
			}
			for _, f := range s.Flags {
				if !strings.Contains(part, page.entry(f.Name)) {
					t.Errorf("%s: --%s is not under %q", filepath.Base(page.path), f.Name, s.Title)
				}
			}
		}
	}
}
