package cmd

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/pflag"
)

// operateOptions are the flags for the people who run retry from cron and
// CI (docs/metrics.md): the operation's name and the metrics file.
type operateOptions struct {
	name        string
	metricsFile string
}

// register declares the flags on fs.
func (o *operateOptions) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.name, "name", "", "name the operation `NAME` (letters, digits, _, - and ., at most 64) in the report, the metrics and CI annotations (default: the command's base name)")
	fs.StringVar(&o.metricsFile, "metrics-file", "", "write Prometheus metrics for node_exporter's textfile collector to `PATH` when the operation ends (atomically, mode 0644)")
}

// maxName is the longest --name.
const maxName = 64

// check checks the flags and returns the operation's name: --name, or
// the base name of the command's program.
func (o *operateOptions) check(fs *pflag.FlagSet, command []string) (string, error) {
	if o.metricsFile != "" {
		if fi, err := os.Stat(o.metricsFile); err == nil && fi.IsDir() {
			return "", usagef("give the path of a file, such as "+filepath.Join(o.metricsFile, "retry.prom"), "--metrics-file: %s is a directory", o.metricsFile)
		}
	} else if fs != nil && fs.Changed("metrics-file") {
		return "", usagef("", "--metrics-file: must not be empty")
	}
	if o.name == "" {
		if fs != nil && fs.Changed("name") {
			return "", usagef("", "--name: must not be empty")
		}
		return defaultName(command), nil
	}
	if err := validName(o.name); err != nil {
		return "", usagef("use letters, digits, _, - and ., such as nightly-backup", "--name: %s", err)
	}
	return o.name, nil
}

// validName reports why s cannot name an operation.
func validName(s string) error {
	if len(s) > maxName {
		return fmt.Errorf("at most %d characters, got %d", maxName, len(s))
	}
	for _, c := range s {
		if !nameChar(c) {
			return fmt.Errorf("%q is not allowed in %q", c, s)
		}
	}
	return nil
}

func nameChar(c rune) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_' || c == '-' || c == '.'
}

// defaultName is the base name of command's program, made a valid name:
// each other character becomes "_", and it is cut to 64 bytes.
func defaultName(command []string) string {
	if len(command) == 0 {
		return "retry"
	}
	base := filepath.Base(strings.TrimRight(command[0], `/\`))
	if i := strings.LastIndexAny(base, `/\`); i >= 0 {
		base = base[i+1:] // a Windows path read on Unix, or the reverse
	}
	name := strings.Map(func(c rune) rune {
		if nameChar(c) {
			return c
		}
		return '_'
	}, base)
	if len(name) > maxName {
		name = name[:maxName]
	}
	if name == "" || name == "." {
		return "retry"
	}
	return name
}
