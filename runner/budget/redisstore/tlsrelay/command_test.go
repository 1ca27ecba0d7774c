package tlsrelay

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestMainModes: the program's modes and exit codes; a bad file is the
// error Load gives, on one line.
func TestMainModes(t *testing.T) {
	dir := t.TempDir()
	junk := filepath.Join(dir, "junk.pem")
	if err := os.WriteFile(junk, []byte("not a certificate\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		args   []string
		code   int
		stderr string
	}{
		{nil, 2, "usage: retry-tls check|connect"},
		{[]string{"listen"}, 2, `unknown mode "listen"`},
		{[]string{"check"}, 0, ""},
		{[]string{"check", "--cacert", junk}, 1, "cacert=: " + junk + " holds no PEM certificate\n"},
		{[]string{"check", "--cert", junk, "--key", junk}, 1, "cert= and key=: tls: failed to find any PEM data in certificate input\n"},
		{[]string{"check", "extra"}, 2, "bad arguments"},
		{[]string{"connect", "--address", "127.0.0.1:1"}, 2, "bad arguments"},
	} {
		var stderr strings.Builder
		code := Main(tc.args, &stderr)
		if code != tc.code || !strings.Contains(stderr.String(), tc.stderr) || tc.stderr == "" && stderr.Len() > 0 {
			t.Errorf("retry-tls %q: exit %d, stderr %q; want %d, %q", tc.args, code, stderr.String(), tc.code, tc.stderr)
		}
	}
}
