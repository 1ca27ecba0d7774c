package cmd

import (
	"slices"
	"strings"
	"text/template"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"
)

// helpSection is a part of the flags in the help, the man pages and the
// CLI reference: its title and its flags' names, the most used first.
type helpSection struct {
	title string
	flags []string
}

// helpSections returns the sections of the flags of retry and of retry
// explain, in the order they are shown. Each flag is in exactly one;
// a new flag is a name added to its section here (TestHelpSections fails
// on a flag that has none).
func helpSections() []helpSection {
	return []helpSection{
		// retry explain's own flags: why one runs it.
		{"The attempt to classify", []string{"exit-code", "output"}},
		{"Attempts and time", []string{"attempts", "deadline", "timeout", "until", "splay", "nested", "kill-after", "stop-signal", "on-retry", "on-retry-fail"}},
		{"Backoff", []string{"delay", "max-delay", "jitter", "reset-after", "seed"}},
		{"Rules", []string{"retry-on", "stop-on", "preset", "retry-if", "stop-if", "fail-if", "match", "on-ambiguous", "no-hints", "max-hint", "hint-pattern", "keep-locale"}},
		{"Input and output", []string{"stdin", "stdout", "stderr", "idempotency-key"}},
		{"Budgets and the store", []string{"budget", "budget-ratio", "max-concurrent", "budget-store", "budget-unavailable", "state-dir"}},
		{"Reporting", []string{"quiet", "summary", "summary-file", "name", "metrics-file", "redact"}},
		{"CI", []string{"ci", "flaky-exit", "exhausted-exit", "ci-annotations", "ci-groups"}},
		// Last: the flags of no section, if any, go just before it.
		{"Help", []string{"help", "version"}},
	}
}

// sectionAnnotation is the flag annotation that holds the title of the
// flag's help section.
const sectionAnnotation = "retry_help_section"

// annotateSections gives each flag of fs that helpSections names the
// annotation of its section. It runs only when help or documentation is
// wanted, and after cobra has added its --help and --version flags: a
// plain run pays nothing for it.
func annotateSections(fs *pflag.FlagSet) {
	for _, s := range helpSections() {
		for _, name := range s.flags {
			if f := fs.Lookup(name); f != nil && len(f.Annotations[sectionAnnotation]) == 0 {
				_ = fs.SetAnnotation(name, sectionAnnotation, []string{s.title})
			}
		}
	}
}

// FlagSection is one titled part of a command's flags, as its help, its
// man page and its CLI reference show them.
type FlagSection struct {
	Title string
	Flags []*pflag.Flag
	// Usage is the help's lines for Flags, one a flag, aligned with the
	// other sections of the same command.
	Usage string
}

// FlagSections returns the sections of c's own flags that hold any, in
// the order of the help, each section's flags in their order there. The
// flags that no section names come before the last section, Help, under
// "Other flags". A command that has no flag of the other sections (a
// command without a run's flags, such as completion) has one section,
// "Flags", as cobra would show them.
func FlagSections(c *cobra.Command) []FlagSection {
	fs := c.LocalFlags()
	annotateSections(fs)
	other := FlagSection{Title: "Other flags"}
	all := FlagSection{Title: "Flags"}
	fs.VisitAll(func(f *pflag.Flag) {
		if f.Hidden {
			return
		}
		all.Flags = append(all.Flags, f)
		if len(f.Annotations[sectionAnnotation]) == 0 {
			other.Flags = append(other.Flags, f)
		}
	})
	table := helpSections()
	var sections []FlagSection
	for i, s := range table {
		if i == len(table)-1 {
			if len(sections) == 0 {
				sections = []FlagSection{all} // only Help, and no section's
				break
			}
			if len(other.Flags) > 0 {
				sections = append(sections, other)
			}
		}
		section := FlagSection{Title: s.title}
		for _, name := range s.flags {
			f := fs.Lookup(name)
			if f != nil && !f.Hidden && slices.Equal(f.Annotations[sectionAnnotation], []string{s.title}) {
				section.Flags = append(section.Flags, f)
			}
		}
		if len(section.Flags) > 0 {
			sections = append(sections, section)
		}
	}
	alignUsages(sections)
	return sections
}

// alignUsages sets each section's Usage: pflag's line for each flag, its
// descriptions starting in one column across every section.
func alignUsages(sections []FlagSection) {
	type line struct{ name, text string }
	lines := make([][]line, len(sections))
	width := 0
	for i, s := range sections {
		for _, f := range s.Flags {
			one := pflag.NewFlagSet("", pflag.ContinueOnError)
			one.AddFlag(f)
			// "  -a, --attempts N   make N attempts ... (default 3)": pflag
			// puts three spaces between a flag's name and its text.
			usage := strings.TrimRight(one.FlagUsagesWrapped(0), "\n")
			indent := len(usage) - len(strings.TrimLeft(usage, " "))
			name, text, _ := strings.Cut(usage[indent:], "   ")
			name = usage[:indent] + name
			width = max(width, len(name))
			lines[i] = append(lines[i], line{name, text})
		}
	}
	for i := range sections {
		var b strings.Builder
		for _, l := range lines[i] {
			b.WriteString(l.name + strings.Repeat(" ", width-len(l.name)) + "   " + l.text + "\n")
		}
		sections[i].Usage = b.String()
	}
}

// usageTemplate is cobra's usage template with the flags in sections.
// Like cobra's, it shows a command's examples and subcommands.
const usageTemplate = `Usage:{{if .Runnable}}
  {{.UseLine}}{{end}}{{if .HasAvailableSubCommands}}
  {{.CommandPath}} [command]{{end}}{{if gt (len .Aliases) 0}}

Aliases:
  {{.NameAndAliases}}{{end}}{{if .HasExample}}

Examples:
{{.Example}}{{end}}{{if .HasAvailableSubCommands}}

Available Commands:{{range .Commands}}{{if (or .IsAvailableCommand (eq .Name "help"))}}
  {{rpad .Name .NamePadding }} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableLocalFlags}}{{range flagSections .}}

{{.Title}}:
{{.Usage | trimTrailingWhitespaces}}{{end}}{{end}}{{if .HasAvailableInheritedFlags}}

Global Flags:
{{.InheritedFlags.FlagUsages | trimTrailingWhitespaces}}{{end}}{{if .HasHelpSubCommands}}

Additional help topics:{{range .Commands}}{{if .IsAdditionalHelpTopicCommand}}
  {{rpad .CommandPath .CommandPathPadding}} {{.Short}}{{end}}{{end}}{{end}}{{if .HasAvailableSubCommands}}

Use "{{.CommandPath}} [command] --help" for more information about a command.{{end}}
`

// usage writes c's usage, its flags in sections, to c's output. It is
// retry's usage function and its subcommands'.
func usage(c *cobra.Command) error {
	t, err := template.New("usage").Funcs(template.FuncMap{
		"flagSections":            FlagSections,
		"trimTrailingWhitespaces": func(s string) string { return strings.TrimRight(s, " \t\r\n") },
		"rpad":                    func(s string, n int) string { return s + strings.Repeat(" ", max(0, n-len(s))) },
	}).Parse(usageTemplate)
	if err != nil {
		return err
	}
	return t.Execute(c.OutOrStderr(), c)
}
