package cmd

import (
	"io"

	"github.com/spf13/cobra"
)

// CommandTree returns retry's command with every subcommand attached, as
// the man page and the CLI reference describe it. It is for generating
// documentation: running it is not supported.
func CommandTree() *cobra.Command {
	root := newRootCommand("", []string{"--help"}, io.Discard, io.Discard, nil)
	root.InitDefaultVersionFlag() // otherwise added only when it runs
	return root
}
