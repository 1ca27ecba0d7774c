//go:build unix

package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"syscall"
	"testing"

	"github.com/b0a38808/retry/internal/redact"
	"github.com/b0a38808/retry/runner"
)

// TestWriteReportIntoFIFO checks that --summary-file naming a FIFO writes
// the report into it for its reader, instead of replacing it with a
// regular file that the reader never sees.
func TestWriteReportIntoFIFO(t *testing.T) {
	path := filepath.Join(t.TempDir(), "fifo")
	if err := syscall.Mkfifo(path, 0o600); err != nil {
		t.Skip("mkfifo:", err)
	}
	// The reader opens first, without waiting for a writer.
	r, err := os.OpenFile(path, os.O_RDONLY|syscall.O_NONBLOCK, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	rep := newReport("true", []string{"true"}, results()[runner.Succeeded], 0, (*redact.Redactor)(nil))
	if err := writeReport(path, rep); err != nil {
		t.Fatal(err)
	}
	want, _ := reportJSON(rep)
	got := make([]byte, len(want)+1)
	n, _ := r.Read(got)
	if !bytes.Equal(got[:n], want) {
		t.Errorf("the reader got %q, want the report", got[:n])
	}
	if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeNamedPipe == 0 {
		t.Errorf("the FIFO was replaced: %v, %v", fi.Mode(), err)
	}
}
