package cmd

import (
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"strings"

	"github.com/spf13/cobra"
)

// completeFlagValues lets shells complete the values of the flags that
// take one of a few words, and the names of the presets. A flag not defined on root is skipped, so an
// entry may come before its flag.
func completeFlagValues(root *cobra.Command) {
	words := map[string][]string{
		"jitter":        {"full", "equal", "none"},
		"match":         {"stderr", "stdout", "both"},
		"on-ambiguous":  {"retry", "stop"},
		"on-retry-fail": {"continue", "stop"},
		"summary":       {"auto", "text", "json", "none"},
		"stdin":         {"replay", "inherit", "null"},
		"stdout":        {"stream", "final"},
		"stderr":        {"stream", "final"},
	}
	for name, values := range words {
		if root.Flags().Lookup(name) == nil {
			continue
		}
		// The only error is a flag that does not exist or already has a
		// completion function; neither can happen here.
		_ = root.RegisterFlagCompletionFunc(name, cobra.FixedCompletions(values, cobra.ShellCompDirectiveNoFileComp))
	}
	if root.Flags().Lookup("preset") != nil {
		_ = root.RegisterFlagCompletionFunc("preset", cobra.FixedCompletions(presetCompletions(), cobra.ShellCompDirectiveNoFileComp))
	}
}

// newCompletionCommand returns `retry completion SHELL`, which prints a
// script that teaches SHELL to complete retry's flags and their values.
func newCompletionCommand() *cobra.Command {
	var noDesc bool
	shells := []string{"bash", "zsh", "fish", "powershell"}
	c := &cobra.Command{
		Use:   "completion SHELL",
		Short: "Print a shell completion script for bash, zsh, fish or powershell",
		Long: `Print a script that teaches SHELL (bash, zsh, fish or powershell) to
complete retry's flags and their values. The deb and rpm packages install
the scripts for bash, zsh and fish already.

To load completions in the current shell:

    bash:        source <(retry completion bash)
    zsh:         source <(retry completion zsh)
    fish:        retry completion fish | source
    powershell:  retry completion powershell | Out-String | Invoke-Expression

To load them in every new shell, write the script where the shell looks
for completions:

    bash:  retry completion bash > ~/.local/share/bash-completion/completions/retry
    zsh:   retry completion zsh > "${fpath[1]}/_retry"
    fish:  retry completion fish > ~/.config/fish/completions/retry.fish

For zsh, completion must be enabled: "autoload -U compinit; compinit" in
~/.zshrc.`,
		ValidArgs:             shells,
		DisableFlagsInUseLine: true,
		Args: func(_ *cobra.Command, args []string) error {
			switch {
			case len(args) == 0:
				return usagef("usage: retry completion bash|zsh|fish|powershell", "completion: missing shell")
			case len(args) > 1:
				return usagef("usage: retry completion bash|zsh|fish|powershell", "completion: unexpected argument %q", args[1])
			case !slices.Contains(shells, args[0]):
				return usagef("choose bash, zsh, fish or powershell", "completion: unknown shell %q", args[0])
			}
			return nil
		},
		RunE: func(c *cobra.Command, args []string) error {
			root, out := c.Root(), c.OutOrStdout()
			switch args[0] {
			case "bash":
				return root.GenBashCompletionV2(out, !noDesc)
			case "zsh":
				if noDesc {
					return root.GenZshCompletionNoDesc(out)
				}
				return root.GenZshCompletion(out)
			case "fish":
				return root.GenFishCompletion(out, !noDesc)
			default:
				if noDesc {
					return root.GenPowerShellCompletion(out)
				}
				return root.GenPowerShellCompletionWithDesc(out)
			}
		},
	}
	c.Flags().BoolVar(&noDesc, "no-descriptions", false, "complete without the flags' descriptions")
	return c
}

// completeCommand completes retry's positional arguments: the first is a
// command, looked up on $PATH like a shell does; the command's own
// arguments complete as file names.
func completeCommand(_ *cobra.Command, args []string, toComplete string) ([]cobra.Completion, cobra.ShellCompDirective) {
	if len(args) > 0 || strings.ContainsRune(toComplete, '/') || strings.ContainsRune(toComplete, filepath.Separator) {
		return nil, cobra.ShellCompDirectiveDefault
	}
	var names []cobra.Completion
	for _, dir := range filepath.SplitList(os.Getenv("PATH")) {
		entries, err := os.ReadDir(dir)
		if err != nil {
			continue
		}
		for _, e := range entries {
			if !strings.HasPrefix(e.Name(), toComplete) {
				continue
			}
			if executable(filepath.Join(dir, e.Name())) {
				names = append(names, e.Name())
			}
		}
	}
	slices.Sort(names)
	return slices.Compact(names), cobra.ShellCompDirectiveNoFileComp
}

// executable reports whether path is a file a shell would run: one with an
// execute bit, or on Windows one with a program's extension.
func executable(path string) bool {
	info, err := os.Stat(path)
	if err != nil || !info.Mode().IsRegular() {
		return false
	}
	if runtime.GOOS == "windows" {
		switch strings.ToLower(filepath.Ext(path)) {
		case ".exe", ".com", ".bat", ".cmd", ".ps1":
			return true
		}
		return false
	}
	return info.Mode().Perm()&0o111 != 0
}
