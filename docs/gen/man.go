package main

import (
	"errors"
	"fmt"
	"strings"

	"github.com/spf13/cobra"
	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/cmd"
)

// fixOptions replaces, in the man page that cobra wrote into dir for c and
// for each of its subcommands, the OPTIONS sections with manOptions': cobra
// prints each flag's default raw, as --quiet[=false] and --deadline="".
func fixOptions(c *cobra.Command, dir string) error {
	return rewritePages(c, dir, "-", ".1", func(c *cobra.Command, page string) (string, error) {
		start := strings.Index(page, ".SH OPTIONS\n")
		if start < 0 {
			return page, nil // a command without flags
		}
		end := start + len(".SH OPTIONS\n")
		for {
			next := strings.Index(page[end:], "\n.SH ")
			if next < 0 {
				return "", errors.New("nothing after OPTIONS")
			}
			end += next + 1
			if !strings.HasPrefix(page[end:], ".SH OPTIONS INHERITED") {
				break
			}
			end += len(".SH ")
		}
		return page[:start] + manOptions(c) + "\n" + page[end:], nil
	})
}

// manOptions renders the flags of c as an OPTIONS section, in the
// sections of its help (cmd.FlagSections), each a subsection unless
// there is only one: each flag
// with its value's name, then its usage and default as `retry --help`
// gives them, a default that is the type's zero value left out.
func manOptions(c *cobra.Command) string {
	var b strings.Builder
	b.WriteString(".SH OPTIONS\n")
	entry := func(f *pflag.Flag) {
		if f.Hidden || f.Deprecated != "" {
			return
		}
		one := pflag.NewFlagSet("", pflag.ContinueOnError)
		one.AddFlag(f)
		// "  -a, --attempts N   make N attempts ... (default 3)"
		_, text, ok := strings.Cut(strings.TrimSpace(one.FlagUsagesWrapped(0)), "   ")
		if !ok {
			return
		}
		name, _ := pflag.UnquoteUsage(f)
		b.WriteString(".TP\n")
		if f.Shorthand != "" && f.ShorthandDeprecated == "" {
			fmt.Fprintf(&b, `\fB%s\fP, `, roff("-"+f.Shorthand))
		}
		fmt.Fprintf(&b, `\fB%s\fP`, roff("--"+f.Name))
		if name != "" {
			fmt.Fprintf(&b, ` \fI%s\fP`, roff(name))
		}
		b.WriteString("\n" + roffLine(strings.TrimSpace(text)) + "\n")
	}
	sections := cmd.FlagSections(c)
	for _, s := range sections {
		if len(sections) > 1 {
			fmt.Fprintf(&b, ".SS %s\n", roffLine(s.Title))
		}
		for _, f := range s.Flags {
			entry(f)
		}
	}
	if c.HasAvailableInheritedFlags() {
		b.WriteString(".SS Global flags\n")
		c.InheritedFlags().VisitAll(entry)
	}
	return b.String()
}

// roff escapes s for a man page: a backslash and a hyphen-minus, which
// groff would otherwise print as a hyphen that a flag copied from the page
// does not work with.
func roff(s string) string {
	return strings.NewReplacer(`\`, `\e`, "-", `\-`).Replace(s)
}

// roffLine escapes s to stand on a line of its own, where a leading "."
// or "'" would start a request.
func roffLine(s string) string {
	s = roff(s)
	if strings.HasPrefix(s, ".") || strings.HasPrefix(s, "'") {
		s = `\&` + s
	}
	return s
}
