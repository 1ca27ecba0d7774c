package cmd

import (
	"os"
	"strings"

	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/internal/stdio"
	"github.com/b0a38808/retry/runner"
)

// streamOptions are the flags that say how stdin, stdout and stderr
// behave across attempts.
type streamOptions struct {
	stdin, stdout, stderr string
}

func (o *streamOptions) register(fs *pflag.FlagSet) {
	fs.StringVar(&o.stdin, "stdin", "replay", "what each attempt reads, `MODE`: replay (the same bytes from the start; a terminal is never replayed), inherit or null")
	fs.StringVar(&o.stdout, "stdout", "stream", "how each attempt's stdout goes out, `MODE`: stream passes it through; final writes only the last attempt's")
	fs.StringVar(&o.stderr, "stderr", "stream", "how each attempt's stderr goes out, `MODE`: stream passes it through; final writes only the last attempt's (retry's own lines still come as they happen)")
}

// apply checks the flags and sets them in cfg.
func (o *streamOptions) apply(cfg *runner.Config) error {
	var err error
	if cfg.StdinMode, err = stdio.ParseStdinMode(o.stdin); err != nil {
		return usagef("", "--stdin: %s", err)
	}
	if cfg.StdoutMode, err = stdio.ParseOutputMode(o.stdout); err != nil {
		return usagef("", "--stdout: %s", err)
	}
	if cfg.StderrMode, err = stdio.ParseOutputMode(o.stderr); err != nil {
		return usagef("", "--stderr: %s", err)
	}
	return nil
}

// attachTerminal makes the attempts take turns with retry at the
// terminal's foreground when stdin is a terminal. What is typed there goes
// to the running attempt: a terminal cannot be replayed.
func attachTerminal(cfg *runner.Config) {
	if !isTerminal(os.Stdin) {
		return
	}
	cfg.Terminal = os.Stdin
	if cfg.StdinMode == stdio.StdinReplay {
		cfg.StdinMode = stdio.StdinInherit
	}
}

// heldFlags names the flags that held stream, which the StreamError of
// lost output names: stdout and stderr joined are held by either.
func heldFlags(stream string, cfg runner.Config) string {
	if stream == "stdout" || stream == "stderr" {
		return "--" + stream + " final"
	}
	var flags []string
	if cfg.StdoutMode == stdio.OutputFinal {
		flags = append(flags, "--stdout final")
	}
	if cfg.StderrMode == stdio.OutputFinal {
		flags = append(flags, "--stderr final")
	}
	return strings.Join(flags, " and ")
}
