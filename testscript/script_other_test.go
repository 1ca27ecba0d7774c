//go:build !unix

package testscript_test

import "testing"

// TestScripts stands for the scripts of testdata, which run sh and Unix
// tools: on Windows, testscript/wine runs retry.exe's own scripts, under
// Wine on Linux.
func TestScripts(t *testing.T) {
	t.Skip("the scripts run sh and Unix tools; testscript/wine runs retry.exe's scripts under Wine on Linux")
}
