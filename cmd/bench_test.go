package cmd

import (
	"io"
	"os/exec"
	"testing"
)

// BenchmarkExecute measures what cmd adds around the runner for a command
// whose first attempt succeeds: the cobra tree, flag parsing and checks,
// signal set-up, the output watch (stderr is not a terminal here, so hints
// are read) and the exit status. Compare with BenchmarkRun in runner. The
// first-run costs of a new process (page faults, package init) are not
// seen here; bench/startup.sh measures those.
//
//	go test -run '^$' -bench Execute -benchmem ./cmd/
func BenchmarkExecute(b *testing.B) {
	path, err := exec.LookPath("true")
	if err != nil {
		b.Skip("no true command:", err)
	}
	b.ReportAllocs()
	for b.Loop() {
		if st := execute("bench", []string{"--", path}, io.Discard, io.Discard); st.code != 0 {
			b.Fatalf("exit status %d; want 0", st.code)
		}
	}
}
