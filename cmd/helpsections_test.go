package cmd

import (
	"regexp"
	"strings"
	"testing"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// TestHelpSections fails when a flag of retry or of retry explain (which
// takes a run's flags) belongs to no help section, or when helpSections
// names a flag that neither has, or names one twice.
func TestHelpSections(t *testing.T) {
	root := CommandTree()
	explain, _, err := root.Find([]string{"explain"})
	if err != nil || explain == root {
		t.Fatalf("no explain subcommand: %v", err)
	}
	exists := map[string]bool{}
	for _, c := range []*cobra.Command{root, explain} {
		c.InitDefaultHelpFlag()
		shown := map[string]string{}
		for _, s := range FlagSections(c) {
			for _, f := range s.Flags {
				shown[f.Name] = s.Title
			}
		}
		c.LocalFlags().VisitAll(func(f *pflag.Flag) {
			exists[f.Name] = true
			switch title := shown[f.Name]; {
			case f.Hidden:
			case title == "":
				t.Errorf("%s --%s is not shown", c.CommandPath(), f.Name)
			case title == "Flags" || title == "Other flags":
				t.Errorf("%s --%s belongs to no help section: add it to its section in helpSections", c.CommandPath(), f.Name)
			}
		})
	}
	seen := map[string]string{}
	titles := map[string]bool{}
	for _, s := range helpSections() {
		if titles[s.title] {
			t.Errorf("helpSections has two sections %q", s.title)
		}
		titles[s.title] = true
		for _, name := range s.flags {
			if !exists[name] {
				t.Errorf("helpSections names --%s in %q: neither retry nor retry explain has that flag", name, s.title)
			}
			if other, ok := seen[name]; ok {
				t.Errorf("helpSections names --%s in %q and in %q", name, other, s.title)
			}
			seen[name] = s.title
		}
	}
}

// TestHelpSectionOrder checks retry --help: its sections in their order,
// each flag's description starting in the same column in all of them.
func TestHelpSectionOrder(t *testing.T) {
	root := CommandTree()
	root.InitDefaultHelpFlag()
	help := root.UsageString()
	heading := regexp.MustCompile(`(?m)^([A-Z][A-Za-z ]*):$`)
	var got []string
	for _, m := range heading.FindAllStringSubmatch(help, -1) {
		got = append(got, m[1])
	}
	want := []string{"Usage", "Examples", "Available Commands", "Attempts and time", "Backoff", "Rules", "Input and output",
		"Budgets and the store", "Reporting", "CI", "Help"}
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Errorf("retry --help's headings:\n%q\nwant\n%q\n%s", got, want, help)
	}
	column := -1
	for _, line := range strings.Split(help, "\n") {
		if !strings.HasPrefix(strings.TrimLeft(line, " "), "-") {
			continue
		}
		_, after, _ := strings.Cut(strings.TrimLeft(line, " "), "   ")
		at := len(line) - len(strings.TrimLeft(after, " "))
		if column < 0 {
			column = at
		}
		if at != column {
			t.Errorf("a description starts in column %d, the first in %d: %q", at, column, line)
		}
	}
}

// TestUsageTemplate checks what the sections leave as cobra makes them: a
// command's examples and its subcommands, and the flags of a command that
// has no sections of its own.
func TestUsageTemplate(t *testing.T) {
	parent := &cobra.Command{Use: "retry", Run: func(*cobra.Command, []string) {}}
	parent.SetUsageFunc(usage)
	c := &cobra.Command{Use: "sub", Example: "  retry sub --plain", Run: func(*cobra.Command, []string) {}}
	c.Flags().Bool("plain", false, "a flag of no section")
	c.Flags().String("attempts", "", "a flag of a section")
	parent.AddCommand(c)
	c.InitDefaultHelpFlag()
	got := c.UsageString()
	for _, want := range []string{"\nExamples:\n  retry sub --plain\n", "\nAttempts and time:\n      --attempts string", "\nOther flags:\n      --plain ", "\nHelp:\n  -h, --help "} {
		if !strings.Contains(got, want) {
			t.Errorf("usage lacks %q:\n%s", want, got)
		}
	}
	if got := parent.UsageString(); !strings.Contains(got, "Available Commands:\n  sub") || !strings.Contains(got, `Use "retry [command] --help"`) {
		t.Errorf("usage does not list the subcommands:\n%s", got)
	}
}
