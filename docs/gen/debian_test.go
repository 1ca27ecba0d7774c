package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestDebianSection checks that retry(1) and the README both have the
// section for users of Debian's retry, with every row of debianRows: the
// README's table is debianMarkdown's, word for word.
func TestDebianSection(t *testing.T) {
	dir := t.TempDir()
	if err := writeMan(tree(), dir); err != nil {
		t.Fatal(err)
	}
	page, err := os.ReadFile(filepath.Join(dir, "retry.1"))
	if err != nil {
		t.Fatal(err)
	}
	_, section, ok := strings.Cut(string(page), ".SH COMING FROM DEBIAN'S RETRY\n")
	if !ok {
		t.Fatal("retry.1 has no section for users of Debian's retry")
	}
	section, _, _ = strings.Cut(section, "\n.SH ")
	for _, r := range debianRows {
		if !strings.Contains(section, ".TP\n"+roffSpans(r.theirs)+"\n") {
			t.Errorf("retry.1's section lacks %s", r.theirs)
		}
	}
	if n := strings.Count(section, ".TP\n"); n != len(debianRows) {
		t.Errorf("retry.1's section has %d entries, want %d", n, len(debianRows))
	}
	readme, err := os.ReadFile(filepath.Join("..", "..", "README.md"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(readme), "\n"+debianMarkdown()) {
		t.Errorf("README.md's table for users of Debian's retry is not this one; copy it from `go test ./docs/gen -run TestDebianSection -v`:\n%s", debianMarkdown())
	}
	if !strings.Contains(string(readme), "retry-cmd") {
		t.Error("README.md does not name the retry-cmd package")
	}
}
