//go:build linux

// Package wine_test runs retry's Windows binary, built with GOOS=windows,
// under Wine on Linux: each script in testdata drives retry.exe with
// cmd.exe commands, and internal/proc's tests run built for Windows. The
// tests make a private Wine prefix (`wineboot -i`) on first use and
// remove it when they end; under Wine 8 they build a bcryptprimitives.dll
// shim into it from shim/bcryptprimitives.c with x86_64-w64-mingw32-gcc,
// for the Go runtime's ProcessPrng. Without wine, or without the compiler
// where the shim is needed, they skip, saying so. The scripts' own
// commands: exitcode (an exact exit status), winps (a Windows program of
// the script running, or not, seen in /proc) and console (retry.exe on a
// terminal, which Wine makes its console, and a Ctrl-C or a Ctrl-Break
// at it). It is tests, not API.
package wine_test

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/b0a38808/retry/testscript/internal/scriptcmd"
)

func TestMain(m *testing.M) {
	code := m.Run()
	winePrefix.close()
	os.Exit(code)
}

// TestScripts runs each script of testdata with retry.exe under Wine:
// "retry" on $PATH is `wine retry.exe`.
func TestScripts(t *testing.T) {
	p := winePrefix.get(t)
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		RequireExplicitExec: true,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"exitcode": scriptcmd.Exitcode,
			"winps":    winps,
			"console":  p.console,
		},
		Condition: func(cond string) (bool, error) {
			if cond == "ctrlbreak" {
				return p.canBreak(), nil
			}
			return false, fmt.Errorf("unknown condition %q", cond)
		},
		Setup: func(env *testscript.Env) error {
			// Scripts must not inherit an enclosing retry's settings.
			for _, name := range []string{"RETRY_DEPTH", "RETRY_DEADLINE", "RETRY_ATTEMPT", "RETRY_MAX_ATTEMPTS", "RETRY_IDEMPOTENCY_KEY", "RETRY_BUDGET_STORE"} {
				env.Setenv(name, "")
			}
			for _, kv := range p.env() {
				name, value, _ := strings.Cut(kv, "=")
				env.Setenv(name, value)
			}
			env.Setenv("PATH", p.bin+string(filepath.ListSeparator)+env.Getenv("PATH"))
			// The Windows state directory, %LocalAppData%\retry, seen
			// from Linux.
			env.Setenv("LOCALAPPDATA_UNIX", p.localAppData)
			env.Values[envKey{}] = append([]string(nil), env.Vars...)
			return nil
		},
	})
}

// TestProcUnderWine runs internal/proc's tests, built for Windows, under
// Wine: the tests of the job objects that hold an attempt's processes,
// which the Windows runners run natively.
func TestProcUnderWine(t *testing.T) {
	p := winePrefix.get(t)
	test := p.exe("proc.test")
	build := exec.Command("go", "test", "-c", "-o", test, "github.com/b0a38808/retry/internal/proc")
	build.Env = append(os.Environ(), "GOOS=windows", "GOARCH=amd64", "CGO_ENABLED=0")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("building internal/proc's tests for Windows: %v\n%s", err, out)
	}
	out, err := p.run(5*time.Minute, p.wine, test, "-test.v")
	t.Logf("%s", out)
	if err != nil {
		t.Fatal(err)
	}
}
