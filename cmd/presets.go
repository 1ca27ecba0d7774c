package cmd

import (
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/b0a38808/retry/runner/classify"
)

// newPresetsCommand returns `retry presets [NAME...]`, which prints every
// preset, or those named, with its rules.
func newPresetsCommand(stdout io.Writer) *cobra.Command {
	c := &cobra.Command{
		Use:   "presets [NAME...]",
		Short: "List the built-in rule sets for --preset, or show those named: their rules, sources, blind spots, and which read messages in English",
		Args:  cobra.ArbitraryArgs,
		RunE: func(_ *cobra.Command, names []string) error {
			ps := classify.Presets()
			if len(names) > 0 {
				ps = ps[:0:0]
				for _, name := range names {
					p, err := classify.LookupPreset(name)
					if err != nil {
						return usagef("retry presets lists them all with their rules", "presets: %s", err)
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
	return c
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

// presetsText renders presets with their rules, for `retry presets`.
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
