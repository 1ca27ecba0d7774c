package cmd

import (
	"errors"
	"strconv"
	"strings"

	"github.com/spf13/pflag"

	"github.com/b0a38808/retry/runner/classify"
)

// Debian's retry (minfrin's), whose package ours replaces, spells some
// flags as we do with other meanings: -t is its number of tries, -d its
// fixed delay in seconds, or a list of them. A script written for it gets
// bad input here, never a changed meaning, and these hints say what it
// meant and how to say that here.

// debianFlagHints are the hints for Debian's flags that retry does not
// have, by the name as typed: one letter for a shorthand.
var debianFlagHints = map[string]string{
	"times":   "Debian's retry's --times N is -a N (--attempts) here",
	"while":   "Debian's retry's --while fail is the default here; --while success is --until fail; --while CODES is --retry-on CODES",
	"w":       "Debian's retry's -w fail is the default here; -w success is --until fail; -w CODES is --retry-on CODES",
	"message": "Debian's retry's --message TEXT names the command in its lines: here --name NAME names the operation in the summary, the report, the metrics and CI annotations",
	"m":       "Debian's retry's -m TEXT names the command in its lines: here --name NAME names the operation in the summary, the report, the metrics and CI annotations",
	"u":       "Debian's retry's -u success|fail is --until success|fail here; -u CODES is --stop-on CODES",
	"j":       debianJitterHint,
}

const debianJitterHint = "Debian's retry's -j N adds up to N seconds at random to each wait: here each wait is drawn at random already (--jitter full, the default)"

// debianHint gives err, the bad input of value for flag (--deadline,
// --timeout or --delay, which Debian's retry spells alike with other
// meanings), the hint that says what Debian's retry meant by it and how
// to say that here, when it meant something there. The command line as
// typed tells -t from --timeout; -t and -d both so given get one hint
// for the pair.
func (o *options) debianHint(err error, flag, value string) error {
	var usage *usageError
	if !errors.As(err, &usage) {
		return err
	}
	short := shortSpelled(o.fs, o.args)
	hint := ""
	if flag != "--delay" && short["timeout"] && short["deadline"] {
		hint = debianPairHint(o.timeout, o.deadline)
	}
	if hint == "" {
		hint = debianDurationHint(flag, short[strings.TrimPrefix(flag, "--")], value)
	}
	if hint != "" {
		usage.hint = hint
	}
	return err
}

// debianDurationHint returns the hint for a value of a duration flag that
// is bad here and means something to Debian's retry: -t N (tries), -d N
// or -d N,N,... and --delay N,N,... (waits in seconds). short says that
// the flag was given by its one letter. "" when there is none.
func debianDurationHint(flag string, short bool, value string) string {
	switch {
	case flag == "--timeout" && short:
		meant, ours, ok := debianTries(value)
		if !ok {
			return ""
		}
		return "Debian's retry reads -t " + value + " as " + meant + ": here that is " + ours + "; -t bounds each attempt, as in -t 5m"
	case flag == "--deadline" && short, flag == "--delay":
		meant, ours, ok := debianWaits(value)
		if !ok {
			return ""
		}
		spelled := "-d"
		if flag == "--delay" {
			spelled = "--delay"
		}
		hint := "Debian's retry reads " + spelled + " " + value + " as tries " + meant + ": here that is " + ours
		if flag == "--deadline" {
			hint += "; -d bounds the whole run, as in -d 10m"
		}
		return hint
	}
	return ""
}

// debianPairHint returns the hint for -t T -d D both given as Debian's
// retry takes them ("3 tries, 1s apart"), or "".
func debianPairHint(t, d string) string {
	tries, triesOurs, ok := debianTries(t)
	if !ok {
		return ""
	}
	waits, waitsOurs, ok := debianWaits(d)
	if !ok {
		return ""
	}
	if t == "-1" {
		tries, triesOurs = "tries without end,", "-a 0 -d 1h" // unlimited attempts need a deadline
	}
	return "Debian's retry reads -t " + t + " -d " + d + " as " + tries + " " + waits + ": here that is " + triesOurs + " " + waitsOurs
}

// debianTries says what Debian's -t VALUE means, and our spelling of it.
func debianTries(value string) (meant, ours string, ok bool) {
	n, err := strconv.Atoi(value)
	switch {
	case err != nil || n < -1 || value == "0":
		return "", "", false
	case n == -1:
		return "tries without end", "-a 0 (unlimited) with a deadline, as in -a 0 -d 1h", true
	case n == 1:
		return "1 try", "-a 1", true
	}
	return value + " tries", "-a " + value, true
}

// debianWaits says what Debian's -d VALUE means, and our spelling of it.
func debianWaits(value string) (meant, ours string, ok bool) {
	waits := debianDelays(value)
	if waits == nil {
		return "", "", false
	}
	first, last := waits[0], waits[len(waits)-1]
	if len(waits) == 1 {
		return first + "s apart", "--delay " + first + "s (add --max-delay " + first + "s --jitter none to wait exactly " + first + "s each time)", true
	}
	return "with waits of " + strings.Join(waits[:len(waits)-1], "s, ") + "s, then " + last + "s", "--delay " + first + "s --max-delay " + last + "s (waits that double from " + first + "s up to " + last + "s, drawn at random)", true
}

// debianDelays returns the seconds of Debian's -d VALUE: a comma-separated
// list of whole numbers. nil when value is no such list, or is one that
// is also good here ("0").
func debianDelays(value string) []string {
	if value == "0" {
		return nil
	}
	waits := strings.Split(value, ",")
	for _, w := range waits {
		if w == "" || !digits(w) {
			return nil
		}
	}
	return waits
}

// debianUntilHint returns the hint for a bad --until value, which Debian's
// retry may have meant: true and false, exit codes and ranges, or several
// of them.
func debianUntilHint(value string) string {
	switch value {
	case "true":
		return "Debian's retry's --until true is --until success here, the default"
	case "false":
		return "Debian's retry's --until false is --until fail here"
	}
	// Suggested only when --stop-on takes it as it stands.
	if codes, err := classify.ParseCodes(value); err == nil && !codes.Timeout {
		return "Debian's retry's --until " + value + " repeats until the command exits so: here --stop-on " + value + " stops there (and a success ends the run too)"
	}
	return "--until takes success (the default: run until it succeeds) or fail (run until it fails); exit codes go in --stop-on CODES"
}

// shortSpelled returns the flags that args, a command line of fs, last
// gave by their one-letter names (-t 5, -qt5, -t=5): the scan stops where
// the flags do, at "--" or the first word that is not a flag.
func shortSpelled(fs *pflag.FlagSet, args []string) map[string]bool {
	short := map[string]bool{}
	for i := 0; i < len(args); i++ {
		a := args[i]
		switch {
		case a == "--" || a == "-" || !strings.HasPrefix(a, "-"):
			return short
		case strings.HasPrefix(a, "--"):
			name, _, valued := strings.Cut(a[2:], "=")
			f := fs.Lookup(name)
			if f == nil {
				return short
			}
			short[f.Name] = false
			if !valued && f.NoOptDefVal == "" {
				i++ // the value is the next word
			}
		default:
			for j := 1; j < len(a); j++ {
				f := fs.ShorthandLookup(a[j : j+1])
				if f == nil {
					return short
				}
				short[f.Name] = true
				if j+1 < len(a) && a[j+1] == '=' {
					break // -t=5
				}
				if f.NoOptDefVal == "" {
					if j+1 == len(a) {
						i++ // -t 5
					}
					break // -t5
				}
			}
		}
	}
	return short
}
