package redisstore

import (
	"crypto/sha1"
	"encoding/hex"
	"testing"
)

// TestScriptSHAs: each script's SHA-1 constant, by which EVALSHA calls
// it, is the SHA-1 of its text.
func TestScriptSHAs(t *testing.T) {
	for _, tc := range []struct{ name, src, sha string }{
		{"windowScript", windowScript, windowSHA},
		{"slotScript", slotScript, slotSHA},
	} {
		sum := sha1.Sum([]byte(tc.src))
		if got := hex.EncodeToString(sum[:]); got != tc.sha {
			t.Errorf("%s's SHA-1 is %s, its constant says %s", tc.name, got, tc.sha)
		}
	}
}
