package cmd

import (
	"maps"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestDebianDurationHint(t *testing.T) {
	for _, tc := range []struct {
		flag  string
		short bool
		value string
		want  string // "" for no hint; else a part of it
	}{
		{"--timeout", true, "3", "reads -t 3 as 3 tries: here that is -a 3;"},
		{"--timeout", true, "1", "as 1 try: here that is -a 1;"},
		{"--timeout", true, "-1", "tries without end: here that is -a 0 (unlimited) with a deadline"},
		{"--timeout", false, "3", ""},
		{"--timeout", true, "0.5", ""},
		{"--timeout", true, "-2", ""},
		{"--timeout", true, "3x", ""},
		{"--deadline", true, "1", "reads -d 1 as tries 1s apart: here that is --delay 1s (add --max-delay 1s --jitter none"},
		{"--deadline", true, "1,2,4", "as tries with waits of 1s, 2s, then 4s: here that is --delay 1s --max-delay 4s"},
		{"--deadline", true, "0", ""},
		{"--deadline", true, "1,,2", ""},
		{"--deadline", true, "1,", ""},
		{"--deadline", false, "30", ""},
		{"--delay", false, "10", "reads --delay 10 as tries 10s apart: here that is --delay 10s"},
		{"--delay", false, "1,2", "with waits of 1s, then 2s"},
		{"--max-delay", true, "10", ""},
	} {
		got := debianDurationHint(tc.flag, tc.short, tc.value)
		if tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("debianDurationHint(%s, %v, %q) = %q; want %q in it", tc.flag, tc.short, tc.value, got, tc.want)
		}
		if tc.flag == "--deadline" && got != "" && !strings.HasSuffix(got, "-d bounds the whole run, as in -d 10m") {
			t.Errorf("debianDurationHint(%s, %q) = %q: does not say what -d is here", tc.flag, tc.value, got)
		}
	}
}

func TestDebianPairHint(t *testing.T) {
	for _, tc := range []struct{ t, d, want string }{
		{"3", "1", "reads -t 3 -d 1 as 3 tries 1s apart: here that is -a 3 --delay 1s (add"},
		{"5", "1,2,4", "as 5 tries with waits of 1s, 2s, then 4s: here that is -a 5 --delay 1s --max-delay 4s"},
		{"-1", "5", "as tries without end, 5s apart: here that is -a 0 -d 1h --delay 5s"},
		{"3", "10m", ""},
		{"3s", "1", ""},
	} {
		if got := debianPairHint(tc.t, tc.d); tc.want == "" && got != "" || !strings.Contains(got, tc.want) {
			t.Errorf("debianPairHint(%q, %q) = %q; want %q in it", tc.t, tc.d, got, tc.want)
		}
	}
}

func TestDebianUntilHint(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"true", "--until success"},
		{"false", "--until fail"},
		{"3", "--until 3 repeats until the command exits so: here --stop-on 3"},
		{"1,5-7", "--stop-on 1,5-7"},
		{"success,3", "--until takes success"},
		{"5-", "--until takes success"},
		{"1,300", "--until takes success"}, // --stop-on would refuse it
		{"7-3", "--until takes success"},
	} {
		if got := debianUntilHint(tc.value); !strings.Contains(got, tc.want) {
			t.Errorf("debianUntilHint(%q) = %q; want %q in it", tc.value, got, tc.want)
		}
	}
}

func TestShortSpelled(t *testing.T) {
	fs := pflag.NewFlagSet("t", pflag.ContinueOnError)
	fs.StringP("timeout", "t", "", "")
	fs.StringP("deadline", "d", "", "")
	fs.StringP("attempts", "a", "", "")
	fs.BoolP("quiet", "q", false, "")
	for _, tc := range []struct {
		args []string
		want map[string]bool
	}{
		{[]string{"-t", "5", "--", "true"}, map[string]bool{"timeout": true}},
		{[]string{"--timeout", "5", "true"}, map[string]bool{"timeout": false}},
		{[]string{"--timeout=5", "-d5", "true"}, map[string]bool{"timeout": false, "deadline": true}},
		{[]string{"-qt5", "true"}, map[string]bool{"quiet": true, "timeout": true}},
		{[]string{"-qt", "5", "-d=1", "true"}, map[string]bool{"quiet": true, "timeout": true, "deadline": true}},
		{[]string{"-t", "5", "--timeout", "6"}, map[string]bool{"timeout": false}},
		{[]string{"-a", "-t", "true"}, map[string]bool{"attempts": true}}, // -t is -a's value
		{[]string{"true", "-t", "5"}, map[string]bool{}},                  // the command's flag
		{[]string{"--", "-t", "5"}, map[string]bool{}},
		{[]string{"-x", "-t", "5"}, map[string]bool{}},
		{[]string{"--quiet", "-d", "1", "--", "x"}, map[string]bool{"quiet": false, "deadline": true}},
	} {
		if got := shortSpelled(fs, tc.args); !maps.Equal(got, tc.want) {
			t.Errorf("shortSpelled(%q) = %v; want %v", tc.args, got, tc.want)
		}
	}
}
