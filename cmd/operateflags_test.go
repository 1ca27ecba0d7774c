package cmd

import (
	"strings"
	"testing"

	"github.com/b0a38808/retry/internal/redact"
)

func TestName(t *testing.T) {
	r, err := redact.New([]string{"prod-db-[0-9]+"})
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		command []string
		want    string
	}{
		{[]string{"/usr/local/bin/backup"}, "backup"},
		{[]string{"curl", "-fsS"}, "curl"},
		{[]string{"./my script.sh"}, "my_script.sh"},
		{[]string{"bin/"}, "bin"},
		{[]string{"/"}, "retry"},
		{[]string{""}, "retry"},
		{[]string{"café"}, "caf_"},
		{[]string{"_"}, "_"},
		{[]string{strings.Repeat("x", 100)}, strings.Repeat("x", 64)},
		// VAR=value words are skipped, secret or not
		{[]string{"AWS_SECRET_ACCESS_KEY=Nf3secretQ", "aws", "s3", "ls"}, "aws"},
		{[]string{"LANG=C", "PGPASSWORD=Nf3secretQ", "/usr/bin/psql"}, "psql"},
		{[]string{"AWS_SECRET_ACCESS_KEY=Nf3secretQ"}, "retry"},
		{[]string{"./a=b"}, "a_b"},
		// a word that is not a variable's assignment is a program
		{[]string{"AWS-SECRET-KEY=Nf3secretQ"}, "AWS-SECRET-KEY"},
		// what redaction hides never reaches the name
		{[]string{"https://deploy:Nf3secretQ@example.com/"}, "example.com"},
		{[]string{"https://deploy:Nf3secretQ@example.com/hooks/run"}, "run"},
		{[]string{"https://example.com/run?access_token=Nf3secretQ"}, "run_access_token"},
		{[]string{"ghp_" + strings.Repeat("a", 36)}, "retry"},
		{[]string{"/opt/prod-db-7/backup"}, "backup"},
		{[]string{"/opt/backup/prod-db-7"}, "retry"},
		{[]string{"/opt/prod-db-7-backup"}, "backup"},
	} {
		got := defaultName(tt.command, r)
		if got != tt.want {
			t.Errorf("defaultName(%q) = %q, want %q", tt.command, got, tt.want)
		}
		if err := validName(got); err != nil {
			t.Errorf("defaultName(%q) is not valid: %v", tt.command, err)
		}
		if strings.Contains(got, "Nf3secretQ") || r.Text(got) != got {
			t.Errorf("defaultName(%q) = %q shows a secret", tt.command, got)
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
