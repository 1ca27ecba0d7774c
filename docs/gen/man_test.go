package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestManPages checks what the man pages show of each command: a title
// that is its own name, every flag with its value's name, and none of the
// noise cobra's own rendering adds to a default ([=false], ="", quotes).
func TestManPages(t *testing.T) {
	dir := t.TempDir()
	root := tree()
	if err := writeMan(root, dir); err != nil {
		t.Fatal(err)
	}
	noise := regexp.MustCompile(`\[=|=""|=\[\]|\(default "`)
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		name := strings.ReplaceAll(c.CommandPath(), " ", "-")
		data, err := os.ReadFile(filepath.Join(dir, name+".1"))
		if err != nil {
			t.Fatal(err)
		}
		page := string(data)
		if title := `.TH "` + strings.ToUpper(name) + `" "1"`; !strings.Contains(page, title+" ") {
			t.Errorf("%s.1 is not titled %s:\n%s", name, title, page[:min(len(page), 200)])
		}
		if m := noise.FindString(page); m != "" {
			t.Errorf("%s.1 shows %q", name, m)
		}
		if strings.Count(page, ".SH OPTIONS") != 1 {
			t.Errorf("%s.1 has %d OPTIONS sections, want 1", name, strings.Count(page, ".SH OPTIONS"))
		}
		c.Flags().VisitAll(func(f *pflag.Flag) {
			entry := `\fB` + roff("--"+f.Name) + `\fP`
			if v, _ := pflag.UnquoteUsage(f); v != "" {
				entry += ` \fI` + roff(v) + `\fP`
			}
			if !f.Hidden && !strings.Contains(page, entry+"\n") {
				t.Errorf("%s.1 lacks %s", name, entry)
			}
		})
		for _, sub := range c.Commands() {
			if sub.IsAvailableCommand() && !sub.IsAdditionalHelpTopicCommand() {
				visit(sub)
			}
		}
	}
	visit(root)
	if err := filepath.WalkDir(filepath.Join("..", "cli"), func(path string, _ os.DirEntry, err error) error {
		if err != nil || !strings.HasSuffix(path, ".md") {
			return err
		}
		data, err := os.ReadFile(path)
		if m := noise.Find(data); err == nil && m != nil {
			t.Errorf("%s shows %q", path, m)
		}
		return err
	}); err != nil {
		t.Fatal(err)
	}
}
