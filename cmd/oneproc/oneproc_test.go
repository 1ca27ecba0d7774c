package oneproc

import (
	"os"
	"os/exec"
	"runtime"
	"strings"
	"testing"
)

func TestOneProcessor(t *testing.T) {
	if want := os.Getenv("ONEPROC_WANT"); want != "" {
		// The child of TestEnvironmentWins.
		if got := runtime.GOMAXPROCS(0); got != 3 {
			t.Fatalf("GOMAXPROCS=3 in the environment, and GOMAXPROCS is %d", got)
		}
		return
	}
	if _, set := os.LookupEnv("GOMAXPROCS"); set {
		t.Skip("GOMAXPROCS is set in the environment")
	}
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Errorf("GOMAXPROCS is %d, want 1", got)
	}
}

func TestEnvironmentWins(t *testing.T) {
	if os.Getenv("ONEPROC_WANT") != "" {
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestOneProcessor$", "-test.v")
	cmd.Env = append(os.Environ(), "GOMAXPROCS=3", "ONEPROC_WANT=3")
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestOneProcessor") {
		t.Fatalf("%v\n%s", err, out)
	}
}
