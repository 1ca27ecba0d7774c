package cmd

import (
	"strings"
	"testing"
)

func TestName(t *testing.T) {
	for _, tt := range []struct {
		command []string
		want    string
	}{
		{[]string{"/usr/local/bin/backup"}, "backup"},
		{[]string{"curl", "-fsS"}, "curl"},
		{[]string{"./my script.sh"}, "my_script.sh"},
		{[]string{"bin/"}, "bin"},
		{[]string{"/"}, "retry"},
		{[]string{"café"}, "caf_"},
		{[]string{strings.Repeat("x", 100)}, strings.Repeat("x", 64)},
	} {
		if got := defaultName(tt.command); got != tt.want {
			t.Errorf("defaultName(%q) = %q, want %q", tt.command, got, tt.want)
		}
		if err := validName(defaultName(tt.command)); err != nil {
			t.Errorf("defaultName(%q) is not valid: %v", tt.command, err)
		}
	}
	for _, bad := range []string{"a b", "x/y", strings.Repeat("x", 65), `job"`, "é"} {
		if validName(bad) == nil {
			t.Errorf("validName(%q) accepted it", bad)
		}
	}
	for _, good := range []string{"nightly-backup", "a.b_c-1", strings.Repeat("x", 64)} {
		if err := validName(good); err != nil {
			t.Errorf("validName(%q): %v", good, err)
		}
	}
}
