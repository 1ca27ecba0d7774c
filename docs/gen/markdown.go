package main

import (
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/b0a38808/retry/cmd"
)

// fixMarkdownOptions replaces, in the CLI reference page that cobra wrote
// into dir for c and for each of its subcommands, the one block of
// options with the sections of the help (cmd.FlagSections), each under a
// heading of its own.
func fixMarkdownOptions(c *cobra.Command, dir string) error {
	return rewritePages(c, dir, "_", ".md", func(c *cobra.Command, page string) (string, error) {
		const heading = "### Options\n\n```\n"
		start := strings.Index(page, heading)
		if start < 0 {
			return page, nil // a command without flags
		}
		end := strings.Index(page[start+len(heading):], "```\n\n")
		if end < 0 {
			return "", errors.New("the options block does not end")
		}
		end += start + len(heading) + len("```\n\n")
		return page[:start] + markdownOptions(c) + page[end:], nil
	})
}

// rewritePages rewrites with fix the page that cobra wrote into dir for c
// and for each of its subcommands, named by the command's path with sep
// between its words, then ext.
func rewritePages(c *cobra.Command, dir, sep, ext string, fix func(c *cobra.Command, page string) (string, error)) error {
	for _, sub := range c.Commands() {
		if !sub.IsAvailableCommand() || sub.IsAdditionalHelpTopicCommand() {
			continue
		}
		if err := rewritePages(sub, dir, sep, ext, fix); err != nil {
			return err
		}
	}
	path := filepath.Join(dir, strings.ReplaceAll(c.CommandPath(), " ", sep)+ext)
	page, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	fixed, err := fix(c, string(page))
	if err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return os.WriteFile(path, []byte(fixed), 0o644)
}

// markdownOptions renders the flags of c as the reference's Options, a
// heading and a block of the help's lines for each section; the one
// section of a command of few flags needs no heading.
func markdownOptions(c *cobra.Command) string {
	var b strings.Builder
	b.WriteString("### Options\n\n")
	sections := cmd.FlagSections(c)
	for _, s := range sections {
		if len(sections) > 1 {
			fmt.Fprintf(&b, "#### %s\n\n", s.Title)
		}
		fmt.Fprintf(&b, "```\n%s```\n\n", s.Usage)
	}
	return b.String()
}
