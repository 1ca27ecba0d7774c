package cmd

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner"
)

// mountTmpfs mounts a small tmpfs on a new directory and unmounts it when
// the test ends. Tests run as root, for whom a read-only mode bit means
// nothing: a file system that is read-only or full is the real thing.
func mountTmpfs(t *testing.T, size string) string {
	t.Helper()
	dir := filepath.Join(t.TempDir(), "mnt")
	if err := os.Mkdir(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := syscall.Mount("tmpfs", dir, "tmpfs", 0, "size="+size); err != nil {
		t.Skipf("cannot mount a tmpfs here (%v): needs root with CAP_SYS_ADMIN", err)
	}
	t.Cleanup(func() {
		if err := syscall.Unmount(dir, syscall.MNT_DETACH); err != nil {
			t.Errorf("unmount %s: %v", dir, err)
		}
	})
	return dir
}

// TestMetricsUnwritableDirectory: on a read-only or a full file system
// the write fails, says so, and leaves the old file whole, with no
// temporary file beside it.
func TestMetricsUnwritableDirectory(t *testing.T) {
	old := metricsText("backup", results()[runner.Succeeded], 0, time.Unix(1796000000, 0), 0)
	for _, tt := range []struct {
		name  string
		spoil func(t *testing.T, dir string)
		want  syscall.Errno
	}{
		{"read-only", func(t *testing.T, dir string) {
			if err := syscall.Mount("", dir, "", syscall.MS_REMOUNT|syscall.MS_RDONLY, ""); err != nil {
				t.Fatalf("remount read-only: %v", err)
			}
		}, syscall.EROFS},
		{"full", func(t *testing.T, dir string) {
			f, err := os.Create(filepath.Join(dir, "filler"))
			if err != nil {
				t.Fatal(err)
			}
			defer f.Close()
			block := make([]byte, 4096)
			for {
				if _, err := f.Write(block); err != nil {
					if !errors.Is(err, syscall.ENOSPC) {
						t.Fatalf("filling the file system: %v", err)
					}
					return
				}
			}
		}, syscall.ENOSPC},
	} {
		t.Run(tt.name, func(t *testing.T) {
			dir := mountTmpfs(t, "256k")
			path := filepath.Join(dir, "backup.prom")
			if err := os.WriteFile(path, old, 0o644); err != nil {
				t.Fatal(err)
			}
			tt.spoil(t, dir)
			err := writeMetrics(path, "backup", results()[runner.Exhausted], 1, time.Unix(1796086400, 0))
			if !errors.Is(err, tt.want) {
				t.Errorf("writeMetrics: got %v, want %v", err, tt.want)
			}
			got, rerr := os.ReadFile(path)
			if rerr != nil || !bytes.Equal(got, old) {
				t.Errorf("the old file changed (read error %v):\n%s", rerr, got)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				if e.Name() != "backup.prom" && e.Name() != "filler" {
					t.Errorf("left behind: %s", e.Name())
				}
			}
		})
	}
}
