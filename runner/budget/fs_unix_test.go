//go:build unix && !aix

package budget

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// holdSlotEnv names the state directory in which the test binary, started
// again as a helper, takes slot 0 of budget "api", starts a child that
// would inherit it if it could, writes the child's pid to ready, and waits
// to be killed.
const holdSlotEnv = "BUDGET_TEST_HOLD_SLOT"

func TestMain(m *testing.M) {
	if dir := os.Getenv(holdSlotEnv); dir != "" {
		os.Exit(holdSlot(dir))
	}
	os.Exit(m.Run())
}

func holdSlot(dir string) int {
	b, err := Open(dir, "api", DefaultPolicy(), nil)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	if _, err := b.Acquire(context.Background(), 1, time.Now().Add(10*time.Second)); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	child := exec.Command("sleep", "30")
	if err := child.Start(); err != nil {
		fmt.Fprintln(os.Stderr, err)
		return 1
	}
	ready := filepath.Join(filepath.Dir(dir), "ready")
	if err := os.WriteFile(ready+".tmp", []byte(strconv.Itoa(child.Process.Pid)), 0o600); err != nil {
		return 1
	}
	os.Rename(ready+".tmp", ready)
	time.Sleep(time.Minute)
	return 1
}

// TestSlotFreedWhenHolderDies kills a process that holds the only slot,
// without letting it release anything, while the attempt it started is
// still running: the slot must be free at once.
func TestSlotFreedWhenHolderDies(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Skip(err)
	}
	tmp := t.TempDir()
	dir := filepath.Join(tmp, "state")
	helper := exec.Command(exe, "-test.run=^$")
	helper.Env = append(os.Environ(), holdSlotEnv+"="+dir)
	helper.Stderr = os.Stderr
	if err := helper.Start(); err != nil {
		t.Fatal(err)
	}
	defer helper.Process.Kill()

	var childPid int
	for start := time.Now(); ; time.Sleep(5 * time.Millisecond) {
		data, err := os.ReadFile(filepath.Join(tmp, "ready"))
		if err == nil {
			childPid, _ = strconv.Atoi(string(data))
			break
		}
		if time.Since(start) > 20*time.Second {
			t.Fatal("the helper never took the slot")
		}
	}
	if childPid > 0 {
		defer syscall.Kill(childPid, syscall.SIGKILL)
	}

	b := openTest(t, dir, "api", DefaultPolicy(), nil)
	ctx := context.Background()
	if _, err := b.Acquire(ctx, 1, time.Now().Add(30*time.Millisecond)); !errors.Is(err, ErrDeadline) {
		t.Fatalf("Acquire while the helper holds the slot = %v, want ErrDeadline", err)
	}
	if err := helper.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	helper.Wait()
	if childPid <= 0 || syscall.Kill(childPid, 0) != nil {
		t.Fatalf("the helper's child (pid %d) is not running; the test needs it alive", childPid)
	}
	s, err := b.Acquire(ctx, 1, time.Now().Add(5*time.Second))
	if err != nil {
		t.Fatalf("Acquire after the holder died = %v, want the slot (leaked, or inherited by its child?)", err)
	}
	s.Release()
}

func TestStateDirChecks(t *testing.T) {
	tests := []struct {
		name  string
		setup func(t *testing.T, dir string)
		want  string
	}{
		{"symlink to a directory", func(t *testing.T, dir string) {
			real := filepath.Join(t.TempDir(), "real")
			mustMkdir(t, real, 0o700)
			if err := os.Symlink(real, dir); err != nil {
				t.Fatal(err)
			}
		}, "is a symlink"},
		{"writable by others", func(t *testing.T, dir string) {
			mustMkdir(t, dir, 0o700)
			if err := os.Chmod(dir, 0o777); err != nil {
				t.Fatal(err)
			}
		}, "chmod 700"},
		{"readable by others", func(t *testing.T, dir string) {
			mustMkdir(t, dir, 0o700)
			if err := os.Chmod(dir, 0o755); err != nil {
				t.Fatal(err)
			}
		}, "not private to you (mode 0755); run chmod 700"},
		{"open to the group", func(t *testing.T, dir string) {
			mustMkdir(t, dir, 0o700)
			if err := os.Chmod(dir, 0o710); err != nil {
				t.Fatal(err)
			}
		}, "not private to you (mode 0710)"},
		{"owned by someone else", func(t *testing.T, dir string) {
			if os.Geteuid() != 0 {
				t.Skip("needs root to give a directory away")
			}
			mustMkdir(t, dir, 0o700)
			if err := os.Chown(dir, 65534, 65534); err != nil {
				t.Skip(err)
			}
		}, "owned by uid 65534"},
		{"not writable", func(t *testing.T, dir string) {
			if os.Geteuid() == 0 {
				t.Skip("root writes anywhere")
			}
			mustMkdir(t, dir, 0o500)
			t.Cleanup(func() { os.Chmod(dir, 0o700) })
		}, "not writable"},
		{"parent not writable", func(t *testing.T, dir string) {
			if os.Geteuid() == 0 {
				t.Skip("root writes anywhere")
			}
			parent := filepath.Dir(dir)
			os.Chmod(parent, 0o500)
			t.Cleanup(func() { os.Chmod(parent, 0o700) })
		}, "cannot create"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			tt.setup(t, dir)
			b, err := Open(dir, "api", DefaultPolicy(), nil)
			if err == nil {
				b.Close()
				t.Fatal("Open succeeded, want an error")
			}
			if !strings.Contains(err.Error(), tt.want) || !strings.Contains(err.Error(), dir) {
				t.Errorf("error = %q, want it to name %s and say %q", err, dir, tt.want)
			}
		})
	}
}

func TestStateFilesAreNotFollowed(t *testing.T) {
	for _, name := range []string{"api.lock", "api.slot.0"} {
		t.Run(name, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "state")
			mustMkdir(t, dir, 0o700)
			target := filepath.Join(t.TempDir(), "target")
			if err := os.Symlink(target, filepath.Join(dir, name)); err != nil {
				t.Fatal(err)
			}
			b, err := Open(dir, "api", DefaultPolicy(), nil)
			if err == nil {
				defer b.Close()
				_, err = b.Acquire(context.Background(), 1, time.Time{})
			}
			if err == nil || !strings.Contains(err.Error(), "symlink") {
				t.Errorf("got %v, want an error about the symlink", err)
			}
			if _, err := os.Lstat(target); !errors.Is(err, os.ErrNotExist) {
				t.Errorf("the symlink's target was created: %v", err)
			}
		})
	}
}

func TestStateFileFIFOIsReset(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "state")
	b := openTest(t, dir, "api", DefaultPolicy(), nil)
	if err := syscall.Mkfifo(filepath.Join(dir, "api.budget"), 0o600); err != nil {
		t.Skip(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	snap, err := b.RecordFirst(ctx, time.Time{})
	if err != nil {
		t.Fatal(err)
	}
	if snap.Warning == "" || snap.Firsts != 1 {
		t.Errorf("got %+v, want a reset with a warning", snap)
	}
}

func mustMkdir(t *testing.T, dir string, mode os.FileMode) {
	t.Helper()
	if err := os.Mkdir(dir, mode); err != nil {
		t.Fatal(err)
	}
}
