package budget

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func TestBudgetCorruptStateIsReset(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, path string)
	}{
		{"garbage", writeString("\x00\x01 not json")},
		{"truncated", writeString(`{"version":1,"buckets":[{"s":`)},
		{"future version", writeString(`{"version":99,"buckets":[]}`)},
		{"negative count", writeString(`{"version":1,"buckets":[{"s":1,"firsts":-5,"retries":0}]}`)},
		{"too large", writeString(strings.Repeat("x", 2*maxStateSize))},
		{"symlink", func(t *testing.T, path string) {
			target := filepath.Join(t.TempDir(), "target")
			if err := os.WriteFile(target, []byte("precious"), 0o600); err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() {
				data, err := os.ReadFile(target)
				if err != nil || string(data) != "precious" {
					t.Errorf("the symlink's target was touched: %q, %v", data, err)
				}
			})
			if err := os.Symlink(target, path); err != nil {
				t.Skip(err)
			}
			// Wine's CreateSymbolicLink succeeds and makes nothing.
			if fi, err := os.Lstat(path); err != nil || fi.Mode()&os.ModeSymlink == 0 {
				t.Skipf("os.Symlink made no symlink: %v", err)
			}
		}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			b := openTest(t, dir, "api", DefaultPolicy(), nil)
			path := filepath.Join(dir, "api.budget")
			tt.setup(t, path)
			snap, err := b.RecordFirst(context.Background(), time.Time{})
			if err != nil {
				t.Fatalf("RecordFirst on a corrupt state: %v", err)
			}
			if !strings.Contains(snap.Warning, "api.budget") || !strings.Contains(snap.Warning, "new window") {
				t.Errorf("warning = %q, want one naming the file and the reset", snap.Warning)
			}
			if snap.Firsts != 1 || snap.Retries != 0 {
				t.Errorf("after reset: %+v, want 1 first and 0 retries", snap)
			}
			fi, err := os.Lstat(path)
			if err != nil || !fi.Mode().IsRegular() || !hasPerm(fi, 0o600) {
				t.Errorf("state file after reset: %v, %v; want a regular file, mode 0600", fi.Mode(), err)
			}
			snap, err = b.RecordFirst(context.Background(), time.Time{})
			if err != nil || snap.Warning != "" || snap.Firsts != 2 {
				t.Errorf("second update: %+v, %v; want 2 firsts and no warning", snap, err)
			}
		})
	}
}

func writeString(s string) func(*testing.T, string) {
	return func(t *testing.T, path string) {
		if err := os.WriteFile(path, []byte(s), 0o600); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBudgetModes(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "a", "state")
	b := openTest(t, dir, "api", DefaultPolicy(), nil)
	if _, err := b.RecordFirst(context.Background(), time.Time{}); err != nil {
		t.Fatal(err)
	}
	s, err := b.Acquire(context.Background(), 1, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	defer s.Release()
	want := map[string]os.FileMode{
		dir:                                  os.ModeDir | 0o700,
		filepath.Dir(dir):                    os.ModeDir | 0o700,
		filepath.Join(dir, "api.lock"):       0o600,
		filepath.Join(dir, "api.budget"):     0o600,
		filepath.Join(dir, "api.slot.0"):     0o600,
		filepath.Join(dir, "api.budget.tmp"): 0, // renamed away
	}
	for path, mode := range want {
		fi, err := os.Lstat(path)
		if mode == 0 {
			if !errors.Is(err, os.ErrNotExist) {
				t.Errorf("%s: exists (%v), want it gone", path, err)
			}
			continue
		}
		if err != nil {
			t.Errorf("%s: %v", path, err)
			continue
		}
		if fi.IsDir() != mode.IsDir() || !hasPerm(fi, mode.Perm()) {
			t.Errorf("%s: mode %v, want %v", path, fi.Mode()&(os.ModeDir|os.ModePerm), mode)
		}
	}
}

// hasPerm reports whether fi has the permission bits perm; always true on
// Windows, which has no Unix file modes (Go reports 0666 or 0444 there).
func hasPerm(fi os.FileInfo, perm os.FileMode) bool {
	return runtime.GOOS == "windows" || fi.Mode().Perm() == perm
}
