package oneproc

import (
	"os"
	"os/exec"
	"runtime"
	"strconv"
	"strings"
	"testing"
)

// TestLoweredThenRestored: the initialiser of this test binary set
// GOMAXPROCS to 1, and Restore gives back the default.
func TestLoweredThenRestored(t *testing.T) {
	if os.Getenv("ONEPROC_WANT") != "" {
		t.Skip("run by TestEnvironmentWins")
	}
	if !lowered {
		t.Skipf("GOMAXPROCS started at %d, not at the %d CPUs: the initialiser left it alone", runtime.GOMAXPROCS(0), runtime.NumCPU())
	}
	if got := runtime.GOMAXPROCS(0); got != 1 {
		t.Fatalf("GOMAXPROCS is %d after the initialiser, want 1", got)
	}
	Restore()
	if got := runtime.GOMAXPROCS(0); got < 2 {
		t.Fatalf("GOMAXPROCS is %d after Restore, want the default (%d CPUs)", got, runtime.NumCPU())
	}
}

// TestEnvironmentWins runs the test binary with GOMAXPROCS set to more
// than the CPUs: the initialiser leaves it alone, and so does Restore.
func TestEnvironmentWins(t *testing.T) {
	want := runtime.NumCPU() + 1
	if os.Getenv("ONEPROC_WANT") != "" {
		if got := runtime.GOMAXPROCS(0); lowered || strconv.Itoa(got) != os.Getenv("ONEPROC_WANT") {
			t.Fatalf("GOMAXPROCS=%s in the environment, and GOMAXPROCS is %d (lowered %v)", os.Getenv("ONEPROC_WANT"), got, lowered)
		}
		Restore()
		if got := runtime.GOMAXPROCS(0); strconv.Itoa(got) != os.Getenv("ONEPROC_WANT") {
			t.Fatalf("Restore changed GOMAXPROCS to %d", got)
		}
		return
	}
	cmd := exec.Command(os.Args[0], "-test.run=^TestEnvironmentWins$", "-test.v")
	cmd.Env = append(os.Environ(), "GOMAXPROCS="+strconv.Itoa(want), "ONEPROC_WANT="+strconv.Itoa(want))
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "--- PASS: TestEnvironmentWins") {
		t.Fatalf("%v\n%s", err, out)
	}
}
