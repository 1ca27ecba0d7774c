package oneproc

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestOneForThenDefault(t *testing.T) {
	if os.Getenv("ONEPROC_WANT") != "" {
		return
	}
	time.Sleep(2 * Restore) // the initialiser's restore is done
	def := runtime.GOMAXPROCS(0)
	if def == 1 {
		t.Skip("the default GOMAXPROCS is 1 here")
	}
	oneFor(50 * time.Millisecond)
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("GOMAXPROCS is %d, want 1", got)
	}
	deadline := time.Now().Add(5 * time.Second)
	for runtime.GOMAXPROCS(0) != def {
		if time.Now().After(deadline) {
			t.Fatalf("GOMAXPROCS still %d long after 50ms, want the default %d", runtime.GOMAXPROCS(0), def)
		}
		time.Sleep(time.Millisecond)
	}
}

// TestEnvironmentWins runs the test binary with GOMAXPROCS set: the
// initialiser leaves it alone.
func TestEnvironmentWins(t *testing.T) {
	if os.Getenv("ONEPROC_WANT") != "" {
		if got := runtime.GOMAXPROCS(0); got != 3 {
			t.Fatalf("GOMAXPROCS=3 in the environment, and GOMAXPROCS is %d", got)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEnvironmentWins$", "-test.v")
	cmd.Env = append(os.Environ(), "GOMAXPROCS=3", "ONEPROC_WANT=3")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestEnvironmentWins") {
		t.Fatalf("%v\n%s", err, out)
	}
}
