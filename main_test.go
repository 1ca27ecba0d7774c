package main

import (
	"os/exec"
	"strings"
	"testing"
)

// TestLinksNoCrypto: retry links no crypto/* package on Linux and macOS,
// whose initialisers every run would pay for; TLS is retry-tls's
// (runner/budget/redisstore/tlsrelay).
func TestLinksNoCrypto(t *testing.T) {
	if _, err := exec.LookPath("go"); err != nil {
		t.Skipf("go is not on PATH to list retry's packages: %v", err)
	}
	for _, goos := range []string{"linux", "darwin"} {
		cmd := exec.Command("go", "list", "-deps", ".")
		cmd.Env = append(cmd.Environ(), "GOOS="+goos)
		out, err := cmd.Output()
		if err != nil {
			t.Fatalf("GOOS=%s go list -deps: %v", goos, err)
		}
		for _, pkg := range strings.Fields(string(out)) {
			if pkg == "crypto" || strings.HasPrefix(pkg, "crypto/") {
				t.Errorf("GOOS=%s: retry links %s", goos, pkg)
			}
		}
	}
}
