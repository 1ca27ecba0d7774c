package cmd

import (
	"bufio"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// TestHelpExamplesAreTheREADMEs checks that the examples of retry --help
// are the commands of the README's Examples section, in its order: a
// change to either shows up here.
func TestHelpExamplesAreTheREADMEs(t *testing.T) {
	f, err := os.Open(filepath.Join("..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	var readme []string
	section, fence := false, ""
	for sc := bufio.NewScanner(f); sc.Scan(); {
		line := sc.Text()
		switch {
		case strings.HasPrefix(line, "## "):
			section = line == "## Examples"
		case !section:
		case strings.HasPrefix(line, "```"):
			if fence == "" {
				fence = strings.TrimPrefix(line, "```")
			} else {
				fence = ""
			}
		case fence == "sh" && strings.TrimSpace(line) != "":
			readme = append(readme, line)
		}
	}
	var help []string
	for _, e := range helpExamples() {
		help = append(help, e.command)
	}
	if len(readme) == 0 || !slices.Equal(help, readme) {
		t.Errorf("retry --help's examples differ from the README's Examples section (its sh blocks):\nhelp:   %q\nREADME: %q", help, readme)
	}
}

// TestHelpShowsTheExamples checks that retry --help shows each example
// with what it does.
func TestHelpShowsTheExamples(t *testing.T) {
	var out strings.Builder
	if st := execute("v0", []string{"--help"}, &out, &out); st.code != 0 {
		t.Fatalf("retry --help: exit %d", st.code)
	}
	for _, e := range helpExamples() {
		if !strings.Contains(out.String(), "  # "+e.what+"\n  "+e.command+"\n") {
			t.Errorf("retry --help lacks the example %q:\n%s", e.command, out.String())
		}
	}
}
