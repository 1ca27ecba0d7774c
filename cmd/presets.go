package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/b0a38808/retry/runner/classify"
)

// newPresetsCommand returns `retry presets [NAME...]`, which lists the
// presets one line each, or prints the rules of those named, or of every
// one with --all.
func newPresetsCommand(stdout io.Writer) *cobra.Command {
	var all bool
	c := &cobra.Command{
		Use:   "presets [NAME...]",
		Short: "List the built-in rule sets for --preset, one line each; show the rules, sources and blind spots of those named, or of all with --all",
		Long: `retry presets lists the built-in rule sets for --preset, one line each: its
name and what it covers.

retry presets NAME... prints the presets named with their rules, the source
of each rule, their blind spots, and whether they read messages in English;
retry presets --all prints every preset so.`,
		Args: cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, names []string) error {
			ps := classify.Presets()
			if len(names) == 0 && !all {
				_, err := io.WriteString(stdout, presetsList(ps))
				return err
			}
			if len(names) > 0 {
				if all {
					return usagef("retry presets --all prints every preset; retry presets NAME... those named", "presets: --all can't be used with preset names")
				}
				ps = ps[:0:0]
				for _, name := range names {
					p, err := classify.LookupPreset(name)
					if err != nil {
						return usagef("retry presets lists them all, one line each", "presets: %s", err)
					}
					ps = append(ps, p)
				}
			}
			_, err := io.WriteString(stdout, presetsText(ps))
			return err
		},
		ValidArgsFunction: func(_ *cobra.Command, _ []string, _ string) ([]cobra.Completion, cobra.ShellCompDirective) {
			return presetCompletions(), cobra.ShellCompDirectiveNoFileComp
		},
	}
	c.Flags().BoolVar(&all, "all", false, "print every preset with its rules")
	return c
}

// presetsList renders presets one line each, their names aligned: what
// `retry presets` prints, the names and summaries a shell shows when it
// completes --preset.
func presetsList(presets []classify.Preset) string {
	width := 0
	for _, p := range presets {
		width = max(width, len(p.Name))
	}
	var b strings.Builder
	for _, p := range presets {
		fmt.Fprintf(&b, "%-*s  %s\n", width, p.Name, p.Summary)
	}
	return b.String()
}

// presetCompletions are the presets' names, each with its summary, as a
// shell completes them.
func presetCompletions() []cobra.Completion {
	var names []cobra.Completion
	for _, p := range classify.Presets() {
		names = append(names, cobra.CompletionWithDesc(p.Name, p.Summary))
	}
	return names
}

// presetsText renders presets with their rules, for `retry presets NAME...`
// and `retry presets --all`.
func presetsText(presets []classify.Preset) string {
	var b strings.Builder
	for i, p := range presets {
		if i > 0 {
			b.WriteByte('\n')
		}
		fmt.Fprintf(&b, "%s: %s\n", p.Name, p.Summary)
		if p.ReadsMessages() {
			b.WriteString("  reads messages: attempts run with LC_MESSAGES=C and no LANGUAGE (--keep-locale: as they are)\n")
		}
		if p.Blind != "" {
			fmt.Fprintf(&b, "  blind spots: %s\n", p.Blind)
		}
		for _, r := range p.Rules {
			value := r.Value
			switch r.Kind {
			case classify.RetryIf, classify.StopIf, classify.FailIf:
				value = "'" + strings.ReplaceAll(value, "'", `'\''`) + "'"
			}
			fmt.Fprintf(&b, "  %s %s\n      %s\n      source: %s\n", r.Kind, value, r.Why, r.Source)
		}
	}
	return b.String()
}
