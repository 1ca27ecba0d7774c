package classify

import (
	"strings"
	"testing"

	"github.com/b0a38808/retry/runner/match"
)

// TestPresetMessages runs messages the tools really print (captured from
// the tool against a local server that failed that way) through each
// preset: retried, stopped, or left to the other rules.
func TestPresetMessages(t *testing.T) {
	const (
		retried = "retryable"
		stopped = "permanent"
	)
	for _, tc := range []struct {
		preset string
		exit   int
		text   string
		want   string
	}{
		{"curl", 22, "curl: (22) The requested URL returned error: 503", retried},
		{"curl", 22, "curl: (22) The requested URL returned error: 429", retried},
		{"curl", 22, "curl: (22) The requested URL returned error: 404", stopped},
		{"curl", 56, "curl: (56) Recv failure: Connection reset by peer", retried},
		{"wget", 8, "2026-12-01 08:53:28 ERROR 503: Service Unavailable.", retried},
		{"wget", 8, "2026-12-01 08:53:28 ERROR 404: Not Found.", stopped},
		{"wget", 4, "failed: Connection refused.", retried},
		{"git", 128, "fatal: unable to access 'http://127.0.0.1:18503/x.git/': The requested URL returned error: 503", retried},
		{"git", 128, "fatal: unable to access 'http://127.0.0.1:1/x.git/': Failed to connect to 127.0.0.1 port 1 after 0 ms: Couldn't connect to server", retried},
		{"git", 128, "fatal: repository 'http://127.0.0.1:18404/x.git/' not found", stopped},
		{"git", 128, "fatal: unable to connect to 127.0.0.1:\n127.0.0.1[0: 127.0.0.1]: errno=Connection refused", retried},
		{"git", 128, "fatal: remote error: access denied or repository not exported: /x.git", stopped},
		{"git", 128, "ssh: connect to host 127.0.0.1 port 1: Connection refused\r\nfatal: Could not read from remote repository.", retried},
		{"git", 128, "fatal: '/nonexist/x.git' does not appear to be a git repository\nfatal: Could not read from remote repository.", stopped},
		{"go", 1, "go: downloading example.com/hello v1.0.0\nmain.go:3:8: example.com/hello@v1.0.0: reading http://127.0.0.1:18503/example.com/hello/@v/v1.0.0.zip: 503 Service Unavailable", retried},
		{"go", 1, `main.go:3:8: example.com/hello@v1.0.0: Get "http://127.0.0.1:1/example.com/hello/@v/v1.0.0.zip": dial tcp 127.0.0.1:1: connect: connection refused`, retried},
		{"go", 1, "# m\nmain.go:3:8: example.com/hello@v1.0.0: reading http://127.0.0.1:18503/example.com/hello/@v/v1.0.0.zip: 503 Service Unavailable\nFAIL\tm [setup failed]", retried},
		{"go", 1, "go: m imports\n\texample.com/hello: example.com/hello@v1.0.0: reading http://127.0.0.1:18503/example.com/hello/@v/v1.0.0.zip: 503 Service Unavailable", retried},
		{"go", 1, "go: example.com/hello@v1.0.0: example.com/hello@v1.0.0: reading http://127.0.0.1:18404/example.com/hello/@v/v1.0.0.info: 404 Not Found", stopped},
		{"go", 1, "main.go:3:8: example.com/hello@v1.0.0: reading http://127.0.0.1:18404/example.com/hello/@v/v1.0.0.zip: 404 Not Found", stopped},
		{"ssh", 255, "ssh: connect to host 127.0.0.1 port 1: Connection refused", retried},
		{"ssh", 255, "kex_exchange_identification: Connection closed by remote host\r\nConnection closed by 127.0.0.1 port 2222", retried},
		{"ssh", 255, "user@127.0.0.1: Permission denied (publickey).", stopped},
	} {
		d := classifyWith(t, tc.preset, tc.exit, tc.text+"\n")
		if d.Class.String() != tc.want {
			t.Errorf("preset %s, exit %d, %q: %s (%s), want %s", tc.preset, tc.exit, tc.text, d.Class, d.Reason, tc.want)
		}
		if tc.want == stopped && !strings.Contains(d.Reason, "matched") && !strings.Contains(d.Reason, "--stop-on") {
			t.Errorf("preset %s: %q stopped by %q, not by a rule of the preset", tc.preset, tc.text, d.Reason)
		}
	}
}

// TestAptFailIf: apt-get update that kept its old lists exits 0 with W:
// lines; the preset makes it a failure.
func TestAptFailIf(t *testing.T) {
	d := classifyWith(t, "apt", 0, "W: Failed to fetch http://127.0.0.1:1/debian/dists/stable/InRelease  Could not connect to 127.0.0.1:1 (127.0.0.1). - connect (111: Connection refused)\nW: Some index files failed to download. They have been ignored, or old ones used instead.\n")
	if d.Class != Retryable || !strings.HasPrefix(d.Reason, "exit 0 but stderr matched --fail-if of preset apt: ") {
		t.Errorf("apt-get update with failed mirrors: %s (%s)", d.Class, d.Reason)
	}
}

// TestAptFailIfStop: a repository whose key is missing fails every
// update the same way: the stop rule makes the --fail-if failure final.
func TestAptFailIfStop(t *testing.T) {
	d := classifyWith(t, "apt", 0, "W: GPG error: http://127.0.0.1:8080 stable InRelease: The following signatures couldn't be verified because the public key is not available: NO_PUBKEY 5DC22404A6F9F1CA\nW: Failed to fetch http://127.0.0.1:8080/dists/stable/InRelease  The following signatures couldn't be verified because the public key is not available: NO_PUBKEY 5DC22404A6F9F1CA\nW: Some index files failed to download. They have been ignored, or old ones used instead.\n")
	if d.Class != Permanent || !strings.Contains(d.Reason, "--fail-if of preset apt") || !strings.Contains(d.Reason, "--stop-if of preset apt") {
		t.Errorf("apt-get update without the key: %s (%s)", d.Class, d.Reason)
	}
}

// TestPresetsCompile: every preset's expression, and the Retry-After
// hint's, is a valid one: AddPreset leaves them to be compiled when a line
// first holds their strings, and a bad one would panic there.
func TestPresetsCompile(t *testing.T) {
	for _, e := range Expressions() {
		if _, err := match.Compile(e); err != nil {
			t.Errorf("%v", err)
		}
	}
	if _, err := CompileHintPattern(retryAfter); err != nil {
		t.Errorf("the Retry-After expression: %v", err)
	}
}
