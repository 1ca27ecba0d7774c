package classify

import (
	"regexp/syntax"
	"slices"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/runner/match"
)

func mustCodes(t *testing.T, s, from string) []CodeRule {
	t.Helper()
	c, err := ParseCodes(s)
	if err != nil {
		t.Fatal(err)
	}
	return []CodeRule{{Codes: c, From: from}}
}

// TestClassifyOrder walks the classification order (Order; the manual's
// "Classification"): each case is decided by one step although a later
// step would decide otherwise.
func TestClassifyOrder(t *testing.T) {
	stop := &match.Match{Pattern: "denied", Stream: "stderr", Line: "permission denied"}
	retry := &match.Match{Pattern: "timed out", Stream: "stdout", Line: "timed out"}
	fail := &match.Match{Pattern: "^W: ", Stream: "stderr", Line: "W: Failed to fetch"}
	preset := &match.Match{Pattern: "^curl: .*", From: "preset curl", Stream: "stderr", Line: "curl: (22) The requested URL returned error: 503"}
	all := Rules{
		StopOn:  mustCodes(t, "3", ""),
		RetryOn: mustCodes(t, "3,75", ""),
		StopIf:  mustPatterns(t, "denied"),
		RetryIf: mustPatterns(t, "timed out"),
	}
	for _, tc := range []struct {
		name  string
		rules Rules
		f     Facts
		class Class
		retry bool
		why   string
	}{
		{"1 success beats --stop-if", all, Facts{Output: match.Output{StopIf: stop}}, Success, false, "exit 0"},
		{"1 --fail-if turns exit 0 into a retryable failure", all, Facts{Output: match.Output{FailIf: fail}}, Retryable, true, `exit 0 but stderr matched --fail-if "^W: "`},
		{"1 --fail-if with --stop-if is permanent", all, Facts{Output: match.Output{FailIf: fail, StopIf: stop}}, Permanent, false,
			`exit 0 but stderr matched --fail-if "^W: ", and stderr matched --stop-if "denied"`},
		{"1 --fail-if is for exit 0 only", all, Facts{Exit: exitcodes.Exit{ExitCode: 3}, Output: match.Output{FailIf: fail}}, Permanent, false, "exit 3 is in --stop-on"},
		{"3 --stop-if beats --retry-on", all, Facts{Exit: exitcodes.Exit{ExitCode: 75}, Output: match.Output{StopIf: stop}}, Permanent, false, `stderr matched --stop-if "denied"`},
		{"3 --stop-if beats a timeout", all, Facts{Exit: exitcodes.Exit{TimedOut: true, Signal: syscall.SIGTERM}, Output: match.Output{StopIf: stop}}, Permanent, false, `stderr matched --stop-if "denied"`},
		{"4 --stop-on beats --retry-if", all, Facts{Exit: exitcodes.Exit{ExitCode: 3}, Output: match.Output{RetryIf: retry}}, Permanent, false, "exit 3 is in --stop-on"},
		{"5 --retry-if", all, Facts{Exit: exitcodes.Exit{ExitCode: 9}, Output: match.Output{RetryIf: retry}}, Retryable, true, `stdout matched --retry-if "timed out"`},
		{"5 --retry-if beats the default permanent 64", all, Facts{Exit: exitcodes.Exit{ExitCode: 64}, Output: match.Output{RetryIf: retry}}, Retryable, true, `stdout matched --retry-if "timed out"`},
		{"5 --retry-if of a preset names the line", all, Facts{Exit: exitcodes.Exit{ExitCode: 22}, Output: match.Output{RetryIf: preset}}, Retryable, true,
			`stderr matched --retry-if of preset curl: "curl: (22) The requested URL returned error: 503"`},
		{"6 --retry-on", all, Facts{Exit: exitcodes.Exit{ExitCode: 75}}, Retryable, true, "exit 75 is in --retry-on"},
		{"6 --retry-on after a timeout", all, Facts{Exit: exitcodes.Exit{ExitCode: 75, TimedOut: true}}, Retryable, true, "exit 75 is in --retry-on"},
		{"6 --retry-on of a preset", Rules{RetryOn: mustCodes(t, "5-7,28", "preset curl")}, Facts{Exit: exitcodes.Exit{ExitCode: 7}}, Retryable, true,
			"exit 7 is in --retry-on 5-7,28 of preset curl"},
		{"6 codes never match a signal", Rules{RetryOn: mustCodes(t, "0-255", "")}, Facts{Exit: exitcodes.Exit{ExitCode: -1, Signal: syscall.SIGKILL}}, Ambiguous, true,
			"killed by SIGKILL: may have committed an effect"},
		{"7 ambiguous beats not listed", all, Facts{Exit: exitcodes.Exit{TimedOut: true, Signal: syscall.SIGTERM}}, Ambiguous, true, "timed out: may have committed an effect"},
		{"7 --on-ambiguous stop", Rules{StopOnAmbiguous: true, RetryOn: mustCodes(t, "1", "")}, Facts{Exit: exitcodes.Exit{TimedOut: true, Signal: syscall.SIGTERM}}, Ambiguous, false,
			"timed out: may have committed an effect, --on-ambiguous stop"},
		{"8 not listed with --retry-on", Rules{RetryOn: mustCodes(t, "75", "")}, Facts{Exit: exitcodes.Exit{ExitCode: 1}}, Permanent, false,
			"not listed: exit 1 matched no --retry-on or --retry-if rule"},
		{"8 not listed with --retry-if", Rules{RetryIf: mustPatterns(t, "x")}, Facts{Exit: exitcodes.Exit{ExitCode: 1}}, Permanent, false,
			"not listed: exit 1 matched no --retry-on or --retry-if rule"},
		{"9 --stop-on alone keeps the default", Rules{StopOn: mustCodes(t, "3", "")}, Facts{Exit: exitcodes.Exit{ExitCode: 1}}, Retryable, true, "default: exit 1 may be transient"},
		{"9 --stop-if alone keeps the default", Rules{StopIf: mustPatterns(t, "x")}, Facts{Exit: exitcodes.Exit{ExitCode: 64}}, Permanent, false, "default: exit 64 is permanent (EX_USAGE)"},
		{"2 start failure beats every rule", all, Facts{Exit: exitcodes.Exit{StartErr: syscall.ENOENT, ExitCode: 127}, Output: match.Output{RetryIf: retry}}, Permanent, false,
			"cannot start: command not found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := tc.rules.Classify(tc.f)
			if d.Class != tc.class || d.Retry != tc.retry || d.Reason != tc.why {
				t.Errorf("Classify = %v, %v, %q; want %v, %v, %q", d.Class, d.Retry, d.Reason, tc.class, tc.retry, tc.why)
			}
		})
	}
}

func TestWait(t *testing.T) {
	r := Rules{MaxHint: 5 * time.Minute}
	for _, tc := range []struct {
		name  string
		delay time.Duration
		out   match.Output
		want  time.Duration
		note  string
	}{
		{"no hint", time.Second, match.Output{}, time.Second, ""},
		{"hint longer", time.Second, match.Output{Hint: 30 * time.Second, HasHint: true}, 30 * time.Second, "server hint 30s"},
		{"hint shorter", 2 * time.Second, match.Output{Hint: time.Second, HasHint: true}, 2 * time.Second, "server hint 1s, shorter than the backoff delay"},
		{"hint clamped", time.Second, match.Output{Hint: time.Hour, HasHint: true}, 5 * time.Minute, "server hint 1h0m0s clamped to --max-hint 5m0s"},
		{"zero hint", time.Second, match.Output{HasHint: true}, time.Second, "server hint 0s, shorter than the backoff delay"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, note := r.Wait(tc.delay, tc.out)
			if got != tc.want || note != tc.note {
				t.Errorf("Wait = %v, %q; want %v, %q", got, note, tc.want, tc.note)
			}
		})
	}
	// --max-hint 0 trusts no hint: every hint is clamped to 0.
	zero := Rules{}
	got, note := zero.Wait(time.Second, match.Output{Hint: 30 * time.Second, HasHint: true})
	if want, wantNote := time.Second, "server hint 30s clamped to --max-hint 0s, shorter than the backoff delay"; got != want || note != wantNote {
		t.Errorf("with MaxHint 0: Wait = %v, %q; want %v, %q", got, note, want, wantNote)
	}
}

func TestParseStreamChoice(t *testing.T) {
	for _, s := range []string{"stderr", "stdout", "both"} {
		got, err := ParseStreamChoice(s)
		if err != nil || got.String() != s {
			t.Errorf("ParseStreamChoice(%q) = %v, %v", s, got, err)
		}
	}
	if _, err := ParseStreamChoice("all"); err == nil {
		t.Error("ParseStreamChoice(all) accepted")
	}
	if !MatchBoth.Stdout() || !MatchBoth.Stderr() || MatchStderr.Stdout() || MatchStdout.Stderr() {
		t.Error("Streams.Stdout/Stderr wrong")
	}
}

func TestPresets(t *testing.T) {
	// Every list of names is derived from Presets: adding a preset
	// touches its definition and its tests, no list.
	ps := Presets()
	var names []string
	for _, p := range ps {
		names = append(names, p.Name)
		if got, err := LookupPreset(p.Name); err != nil || got.Name != p.Name {
			t.Errorf("LookupPreset(%s) = %s, %v", p.Name, got.Name, err)
		}
	}
	if !slices.IsSorted(names) || len(slices.Compact(slices.Clone(names))) != len(names) {
		t.Errorf("preset names are not sorted and unique: %v", names)
	}
	for _, p := range ps {
		if p.Summary == "" || len(p.Rules) == 0 {
			t.Errorf("preset %s has no summary or no rules", p.Name)
		}
		for _, r := range p.Rules {
			if r.Source == "" || r.Why == "" {
				t.Errorf("preset %s rule %s %q lacks a source or a why", p.Name, r.Kind, r.Value)
			}
			var err error
			switch r.Kind {
			case RetryOn, StopOn:
				_, err = ParseCodes(r.Value)
			case RetryIf, StopIf, FailIf:
				_, err = match.Compile(r.Value)
				if re, perr := syntax.Parse(r.Value, syntax.Perl); perr == nil && !hasLiteral(re.Simplify()) {
					t.Errorf("preset %s: %s %q has a branch that requires no literal", p.Name, r.Kind, r.Value)
				}
			default:
				t.Errorf("preset %s: unknown kind %q", p.Name, r.Kind)
			}
			if err != nil {
				t.Errorf("preset %s: %s %q: %v", p.Name, r.Kind, r.Value, err)
			}
		}
	}
	if _, err := LookupPreset("nope"); err == nil || err.Error() != `unknown preset "nope": want one of `+strings.Join(names, ", ") {
		t.Errorf("LookupPreset(nope) error = %v", err)
	}
}

// hasLiteral reports whether every match of re contains a literal: each
// branch of an alternation does, or some part of a sequence.
func hasLiteral(re *syntax.Regexp) bool {
	switch re.Op {
	case syntax.OpLiteral:
		return len(re.Rune) > 0
	case syntax.OpCapture, syntax.OpPlus:
		return hasLiteral(re.Sub[0])
	case syntax.OpRepeat:
		return re.Min >= 1 && hasLiteral(re.Sub[0])
	case syntax.OpConcat:
		for _, sub := range re.Sub {
			if hasLiteral(sub) {
				return true
			}
		}
	case syntax.OpAlternate:
		for _, sub := range re.Sub {
			if !hasLiteral(sub) {
				return false
			}
		}
		return true
	}
	return false
}

// TestRulesShareSearch: the Matchers of one Rules share their search and
// their Retry-After Pattern, so that a later attempt compiles neither.
func TestRulesShareSearch(t *testing.T) {
	r := Rules{RetryIf: mustPatterns(t, "connection refused"), Hints: true}
	r.NewMatcher(nil)
	search, hint := r.search, r.retryAfter
	if search == nil || hint == nil {
		t.Fatalf("the first Matcher left search %p, hint %p", search, hint)
	}
	r.NewMatcher(nil)
	if r.search != search || r.retryAfter != hint {
		t.Error("two attempts of one Rules compile their search apart")
	}
}
