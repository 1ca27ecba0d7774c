package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/runner/classify"
)

const regenerate = "regenerate with `go generate` (or `go run ./docs/gen`) at the repository's root and commit the result"

// TestCommittedDocsAreCurrent fails when docs/man or docs/cli differ from
// what the command tree produces: a flag or command was added, changed or
// removed without regenerating them.
func TestCommittedDocsAreCurrent(t *testing.T) {
	tmp := t.TempDir()
	man, cli := filepath.Join(tmp, "man"), filepath.Join(tmp, "cli")
	if err := writeAll(tree(), man, cli); err != nil {
		t.Fatal(err)
	}
	sameFiles(t, man, filepath.Join("..", "man"), "docs/man")
	sameFiles(t, cli, filepath.Join("..", "cli"), "docs/cli")
}

// TestPresetReferenceIsCurrent fails when docs/presets.md differs from
// what the presets' definitions produce: a preset or rule was added,
// changed or removed without regenerating it.
func TestPresetReferenceIsCurrent(t *testing.T) {
	got, err := os.ReadFile(filepath.Join("..", "presets.md"))
	if err != nil {
		t.Fatalf("docs/presets.md: %v; %s", err, regenerate)
	}
	if string(got) != presetsPage(classify.Presets()) {
		t.Errorf("docs/presets.md is out of date; %s", regenerate)
	}
}

// TestPresetNamesAreCurrent fails when a page that names every preset
// does not name them as the presets' definitions do: a preset was added or
// removed without regenerating the docs.
func TestPresetNamesAreCurrent(t *testing.T) {
	for _, name := range presetNamePages() {
		page, err := os.ReadFile(filepath.Join("..", name))
		if err != nil {
			t.Fatal(err)
		}
		want, err := withPresetNames(string(page), classify.Presets())
		if err != nil {
			t.Errorf("docs/%s: %v", name, err)
			continue
		}
		if string(page) != want {
			t.Errorf("docs/%s names other presets than there are; %s", name, regenerate)
		}
	}
}

// sameFiles reports every file that differs between the generated
// directory and the committed one, or exists in only one of them.
func sameFiles(t *testing.T, generated, committed, name string) {
	t.Helper()
	want := readDir(t, generated)
	got := readDir(t, committed)
	for f, w := range want {
		g, ok := got[f]
		switch {
		case !ok:
			t.Errorf("%s/%s is missing; %s", name, f, regenerate)
		case !bytes.Equal(g, w):
			t.Errorf("%s/%s is out of date; %s", name, f, regenerate)
		}
	}
	for f := range got {
		if _, ok := want[f]; !ok {
			t.Errorf("%s/%s documents nothing that exists; %s", name, f, regenerate)
		}
	}
}

func readDir(t *testing.T, dir string) map[string][]byte {
	t.Helper()
	entries, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	files := map[string][]byte{}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(dir, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		files[e.Name()] = b
	}
	return files
}

// TestManualDescribesEveryFlag fails when neither docs/manual.md nor a
// page it links to mentions a flag of retry or of one of its subcommands.
func TestManualDescribesEveryFlag(t *testing.T) {
	manual, err := os.ReadFile(filepath.Join("..", "manual.md"))
	if err != nil {
		t.Fatal(err)
	}
	pages := manual
	for _, link := range regexp.MustCompile(`\]\(([a-z0-9_-]+\.md)(#[^)]*)?\)`).FindAllSubmatch(manual, -1) {
		page, err := os.ReadFile(filepath.Join("..", string(link[1])))
		if err != nil {
			t.Errorf("docs/manual.md links to %s: %v", link[1], err)
			continue
		}
		pages = append(append(pages, '\n'), page...)
	}
	var missing []string
	var visit func(c *cobra.Command)
	visit = func(c *cobra.Command) {
		c.InitDefaultHelpFlag()
		c.Flags().VisitAll(func(f *pflag.Flag) {
			if f.Hidden || f.Name == "help" {
				return
			}
			mention := regexp.MustCompile("--" + regexp.QuoteMeta(f.Name) + `([^\w-]|$)`)
			if !mention.Match(pages) {
				missing = append(missing, c.CommandPath()+" --"+f.Name)
			}
		})
		for _, sub := range c.Commands() {
			visit(sub)
		}
	}
	visit(tree())
	slices.Sort(missing)
	for _, m := range slices.Compact(missing) {
		t.Errorf("docs/manual.md and the pages it links to do not describe %s", m)
	}
}
