package cmd

import (
	"errors"
	"io"
	"slices"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/runner"
)

const usageLine = "retry [flags] [--] COMMAND [ARG...]"

// newRootCommand returns the retry command. Subcommands are words only
// as the first argument: for any other args they are left out of the
// tree, so `retry -a 3 presets` and `retry -- presets` run a command
// named presets. signals catches the signals the attempts are given;
// nil starts catching them when the command runs.
func newRootCommand(version string, args []string, stdout, stderr io.Writer, signals *runner.SignalCatcher) *cobra.Command {
	opts := newOptions(signals)
	opts.args = args
	root := &cobra.Command{
		Use:   usageLine,
		Short: "Run a command again when it fails in a way that another attempt may fix",
		Long: `retry runs COMMAND. When it fails in a way that another attempt may fix, retry
waits a capped, jittered exponential delay and runs it again, until it
succeeds, fails permanently, or runs out of attempts or time.

Flags stop at the first word that is not a flag: in "retry -a 5 curl -fsS URL",
-fsS goes to curl. Use -- before a command whose name starts with "-" or
names a retry subcommand.

A duration (DUR) is a number and its unit: 250ms, 30s, 5m, 1h30m or 2d;
only 0 needs none.`,
		Example:               exampleText(helpExamples()),
		Version:               resolveVersion(version),
		Args:                  cobra.ArbitraryArgs,
		SilenceUsage:          true,
		SilenceErrors:         true,
		DisableFlagsInUseLine: true,
		RunE: func(c *cobra.Command, args []string) error {
			if err := refuseEmpty(c.Flags()); err != nil {
				return err
			}
			return opts.run(c.Context(), args, stdout, stderr)
		},
	}
	root.SetVersionTemplate("retry {{.Version}}\n")
	root.SetUsageFunc(usage) // the flags in sections, for the subcommands too
	root.SetOut(stdout)
	root.SetErr(stderr)
	root.SetArgs(args)
	root.Flags().SetInterspersed(false)
	root.Flags().SortFlags = false
	root.SetFlagErrorFunc(flagError)
	opts.register(root.Flags())
	root.ValidArgsFunction = completeCommand
	if completing(args) {
		// Only a shell completing a command line asks for these.
		completeFlagValues(root)
	}
	// retry has its own completion command; cobra's would be created by
	// Execute whenever the first word that is not a flag is "completion".
	root.CompletionOptions.DisableDefaultCmd = true
	if mayWantSubcommands(args) {
		if subs := subcommands(stdout, args); wantsSubcommands(args, subs) {
			root.AddCommand(subs...)
			if completing(args) {
				for _, c := range subs {
					completeFlagValues(c) // retry explain takes a run's flags
				}
			}
		}
	}
	return root
}

// completing reports whether args are cobra's request to complete a
// command line.
func completing(args []string) bool {
	return len(args) > 0 && (args[0] == cobra.ShellCompRequestCmd || args[0] == cobra.ShellCompNoDescRequestCmd)
}

// mayWantSubcommands reports cheaply whether wantsSubcommands can hold for
// args, so that the subcommands are not built for a plain run such as
// `retry -a 3 -- make`: only a first argument that is not a flag, or asks
// for help, can name one.
func mayWantSubcommands(args []string) bool {
	return len(args) > 0 && (args[0] == "-h" || args[0] == "--help" || !strings.HasPrefix(args[0], "-"))
}

// subcommands returns retry's own subcommands; args is retry's command
// line, its first word a subcommand's name.
func subcommands(stdout io.Writer, args []string) []*cobra.Command {
	return []*cobra.Command{newPresetsCommand(stdout), newExplainCommand(stdout, args[min(1, len(args)):]), newCompletionCommand()}
}

// wantsSubcommands reports whether args ask for a subcommand, or for help,
// so that the help lists the subcommands. Only the first argument can
// name one. A shell completing a command line (cobra's __complete) gets
// the subcommands while it completes the first word or when the first
// word names one.
func wantsSubcommands(args []string, subs []*cobra.Command) bool {
	if len(args) == 0 {
		return false
	}
	if completing(args) {
		return len(args) <= 2 || namesSubcommand(args[1], subs)
	}
	return namesSubcommand(args[0], subs)
}

// namesSubcommand reports whether word is a subcommand's name, cobra's
// help included, or asks for help.
func namesSubcommand(word string, subs []*cobra.Command) bool {
	switch word {
	case "-h", "--help", "help":
		return true
	}
	return slices.ContainsFunc(subs, func(c *cobra.Command) bool { return c.Name() == word })
}

// flagError reports a flag that cobra could not parse. An unknown
// one-letter flag is named alone, without the rest of its word: in
// `retry -pSECRET mysql`, a flag meant for the command before "--" or the
// command's name, that rest is often a password.
func flagError(_ *cobra.Command, err error) error {
	var unknown *pflag.NotExistError
	if errors.As(err, &unknown) {
		debian := debianFlagHints[unknown.GetSpecifiedName()]
		if unknown.GetSpecifiedShortnames() != "" {
			if debian == "" {
				debian = "a flag meant for the command goes after its name: " + usageLine
			}
			return usagef(debian, "unknown shorthand flag: '%s'", unknown.GetSpecifiedName())
		}
		if debian != "" && len(unknown.GetSpecifiedName()) > 1 {
			return usagef(debian, "%s", err)
		}
	}
	return usagef("retry --help lists the flags", "%s", err)
}
