package classify

import (
	"path/filepath"
	"strings"

	"github.com/b0a38808/retry/runner/match"
)

// Quiet is a flag on the command line that hides the messages a preset
// reads, so that its rules cannot decide.
type Quiet struct {
	// Why says what hides the messages: "curl -fsL (-s without -S) prints
	// no error messages".
	Why string
	// Advice names the flag that shows them.
	Advice string
}

// CheckCommand looks on the command line argv for a flag known to hide the
// messages that the presets' rules read (curl -s without -S, wget -q,
// ssh -q, scp -q, go -json), and remembers it for the reasons of attempts
// that no rule could decide. Call it once the presets and Read are set.
func (r *Rules) CheckCommand(argv []string) {
	r.quiet = nil
	if len(argv) == 0 {
		return
	}
	tool := strings.TrimSuffix(filepath.Base(argv[0]), ".exe")
	for _, p := range r.presets {
		if p.quiet == nil {
			continue
		}
		if q := p.quiet(tool, argv[1:], r.Read); q != nil {
			r.quiet = q
			return
		}
	}
}

// cannotSee adds to d, a decision no rule could make, why the rules
// could not decide when they could not see the messages: a flag hid them,
// or the streams they read carried nothing.
func (r *Rules) cannotSee(d *Decision, out match.Output) {
	switch {
	case r.quiet != nil && r.readsMessages():
		d.Reason += "; the rules could not decide: " + r.quiet.Why
		d.Advice = r.quiet.Advice
	case out.Silent && (len(r.StopIf) > 0 || len(r.RetryIf) > 0):
		streams := "stderr"
		switch r.Read {
		case MatchStdout:
			streams = "stdout"
		case MatchBoth:
			streams = "stdout and stderr"
		}
		d.Reason += "; the rules could not decide: " + streams + " carried nothing"
		d.Advice = "the rules read " + streams + ", which carried nothing: let the command print its errors there"
		if r.Read == MatchStderr {
			d.Advice += ", or add --match both if it writes them to stdout"
		}
	}
}

// readsMessages reports whether a preset that reads messages is in use.
func (r *Rules) readsMessages() bool {
	for _, p := range r.presets {
		if p.ReadsMessages() {
			return true
		}
	}
	return false
}

// shortFlags walks the arguments of a tool whose short flags combine
// ("-fsL"), calling f with each flag letter or long flag ("--silent", its
// "=value" cut off) and the argument it came from. takesValue lists the
// short letters that take a value: the rest of their argument, or the next
// one. The walk ends at "--" or when stop, given each non-flag argument,
// returns true.
func shortFlags(args []string, takesValue string, stop func(arg string) bool, f func(flag, arg string)) {
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--":
			return
		case strings.HasPrefix(a, "--"):
			name, _, _ := strings.Cut(a, "=")
			f(name, a)
		case len(a) > 1 && a[0] == '-':
			for j := 1; j < len(a); j++ {
				c := a[j : j+1]
				f(c, a)
				if strings.Contains(takesValue, c) {
					if j == len(a)-1 {
						i++ // the value is the next argument
					}
					break
				}
			}
		default:
			if stop != nil && stop(a) {
				return
			}
		}
	}
}

// curlQuiet finds curl's -s (--silent) without -S (--show-error): curl
// then prints no error message at all.
func curlQuiet(tool string, args []string, _ StreamChoice) *Quiet {
	if tool != "curl" {
		return nil
	}
	silent, show := "", false
	shortFlags(args, "AbcCdDeEFHKmoPQrtTuUwxXyYz", nil, func(flag, arg string) {
		switch flag {
		case "s", "--silent":
			silent = arg
		case "--no-silent":
			silent = ""
		case "S", "--show-error":
			show = true
		case "--no-show-error":
			show = false
		}
	})
	if silent == "" || show {
		return nil
	}
	return &Quiet{
		Why:    "curl " + silent + " (-s without -S) prints no error message",
		Advice: "add -S (--show-error) to curl's -s, as in curl -fsS, so that it prints its errors for --preset curl",
	}
}

// wgetQuiet finds wget's -q (--quiet), and -o (--output-file), which
// sends the messages to a file.
func wgetQuiet(tool string, args []string, _ StreamChoice) *Quiet {
	if tool != "wget" {
		return nil
	}
	var q *Quiet
	shortFlags(args, "aeiBtOTwPQlARDXIUon", nil, func(flag, arg string) {
		switch flag {
		case "q", "--quiet":
			q = &Quiet{
				Why:    "wget " + arg + " (quiet) prints no error message",
				Advice: "use wget -nv (--no-verbose) instead of -q: it prints only the errors and one line per file",
			}
		case "o", "--output-file":
			q = &Quiet{
				Why:    "wget " + arg + " writes its messages to a file",
				Advice: "drop wget's -o (--output-file) so that its messages reach stderr, or use -nv to keep them short",
			}
		}
	})
	return q
}

// sshQuiet finds ssh's, scp's and sftp's -q, and ssh's -o LogLevel=QUIET:
// they hide the "ssh: connect to host" messages. Options end at ssh's
// remote command.
func sshQuiet(tool string, args []string, _ StreamChoice) *Quiet {
	var values string
	switch tool {
	case "ssh":
		values = "BbcDEeFIiJLlmOoPpQRSWw"
	case "scp":
		values = "cDFiJlPoSX"
	case "sftp":
		values = "BbcDFilPRSsoX"
	default:
		return nil
	}
	var q *Quiet
	// ssh's options go on after the destination, up to the remote
	// command, whose words are its own; scp and sftp take options anywhere.
	dest := false
	stop := func(string) bool {
		if tool != "ssh" {
			return false
		}
		if dest {
			return true // the remote command
		}
		dest = true
		return false
	}
	shortFlags(args, values, stop, func(flag, arg string) {
		if flag == "q" {
			q = &Quiet{
				Why:    tool + " " + arg + " (quiet) prints no error message",
				Advice: "drop -q from " + tool + ": without it, it prints why it could not connect",
			}
		}
	})
	if q == nil && tool == "ssh" && logLevelQuiet(args) {
		q = &Quiet{
			Why:    "ssh -o LogLevel=QUIET prints no error message",
			Advice: "drop -o LogLevel=QUIET (or use LogLevel=ERROR) so that ssh prints why it could not connect",
		}
	}
	return q
}

// logLevelQuiet reports whether args set ssh's LogLevel to QUIET or FATAL
// with -o.
func logLevelQuiet(args []string) bool {
	for i, a := range args {
		opt := ""
		switch {
		case a == "-o" && i+1 < len(args):
			opt = args[i+1]
		case strings.HasPrefix(a, "-o"):
			opt = a[2:]
		default:
			continue
		}
		name, value, ok := strings.Cut(strings.ReplaceAll(opt, " ", "="), "=")
		if ok && strings.EqualFold(name, "LogLevel") && (strings.EqualFold(value, "QUIET") || strings.EqualFold(value, "FATAL")) {
			return true
		}
	}
	return false
}

// goQuiet finds go's -json, which turns the errors of go mod download,
// go list and go test into JSON on stdout, where --match stderr does not
// look.
func goQuiet(tool string, args []string, match StreamChoice) *Quiet {
	if tool != "go" || match.Stdout() {
		return nil
	}
	for _, a := range args {
		if a == "--" {
			break
		}
		if a == "-json" || a == "--json" || strings.HasPrefix(a, "-json=") {
			return &Quiet{
				Why:    "go " + a + " writes its errors to stdout as JSON",
				Advice: "add --match both so that --preset go reads stdout too, or drop -json",
			}
		}
	}
	return nil
}
