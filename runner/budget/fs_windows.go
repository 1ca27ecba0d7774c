//go:build windows

package budget

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"golang.org/x/sys/windows"
)

// stateDir is the state directory. Windows has no O_NOFOLLOW nor directory
// descriptors here: the directory and each file are checked with Lstat
// before use, which refuses a symlink or junction put there beforehand but
// not one swapped in between the check and the open, and ownership is not
// checked. Locking is as on Unix (LockFileEx; Windows releases a dead
// process's locks), so counts and concurrency caps are exact.
type stateDir struct {
	path string
}

// openStateDir creates path unless it exists and checks that it is a real
// directory.
func openStateDir(path string) (*stateDir, error) {
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, fmt.Errorf("state directory %s: cannot create it: %w", path, unwrapPath(err))
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("state directory %s: %w", path, unwrapPath(err))
	}
	if fi.Mode()&(os.ModeSymlink|os.ModeIrregular) != 0 || !fi.IsDir() {
		return nil, fmt.Errorf("state directory %s is a link or not a directory; it must be a real directory", path)
	}
	return &stateDir{path: path}, nil
}

// close releases nothing: the directory is not held open on Windows.
func (d *stateDir) close() error { return nil }

// lstatRegular returns errNotRegular when name exists and is not a regular
// file, and whether it exists.
func (d *stateDir) lstatRegular(name string) (bool, error) {
	fi, err := os.Lstat(filepath.Join(d.path, name))
	if errors.Is(err, os.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, err
	}
	if !fi.Mode().IsRegular() {
		return true, fmt.Errorf("%s: %w", filepath.Join(d.path, name), errNotRegular)
	}
	return true, nil
}

// openFile opens (creating it) the regular file name for reading and
// writing.
func (d *stateDir) openFile(name string) (*os.File, error) {
	if _, err := d.lstatRegular(name); err != nil {
		return nil, err
	}
	return os.OpenFile(filepath.Join(d.path, name), os.O_RDWR|os.O_CREATE, 0o600)
}

// readFile returns the content of the regular file name, at most limit+1
// bytes, and nil for a file that does not exist.
func (d *stateDir) readFile(name string, limit int64) ([]byte, error) {
	exists, err := d.lstatRegular(name)
	if err != nil || !exists {
		return nil, err
	}
	f, err := os.Open(filepath.Join(d.path, name))
	if errors.Is(err, os.ErrNotExist) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	defer f.Close()
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// writeFile replaces name with a new file holding data, through a
// temporary file and a rename.
func (d *stateDir) writeFile(name string, data []byte) error {
	tmp := filepath.Join(d.path, name+".tmp")
	if err := os.Remove(tmp); err != nil && !errors.Is(err, os.ErrNotExist) {
		return err
	}
	f, err := os.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return err
	}
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		os.Remove(tmp)
		return err
	}
	if err := os.Rename(tmp, filepath.Join(d.path, name)); err != nil {
		os.Remove(tmp)
		return err
	}
	return nil
}

// tryLock takes an exclusive lock on f's first byte without waiting, and
// reports whether it got it.
func tryLock(f *os.File) (bool, error) {
	var ol windows.Overlapped
	err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK|windows.LOCKFILE_FAIL_IMMEDIATELY, 0, 1, 0, &ol)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, windows.ERROR_LOCK_VIOLATION) || errors.Is(err, windows.ERROR_IO_PENDING) {
		return false, nil
	}
	return false, fmt.Errorf("lock %s: %w", f.Name(), err)
}

// waitLock takes an exclusive lock on f's first byte, waiting as long as
// it takes.
func waitLock(f *os.File) error {
	var ol windows.Overlapped
	if err := windows.LockFileEx(windows.Handle(f.Fd()), windows.LOCKFILE_EXCLUSIVE_LOCK, 0, 1, 0, &ol); err != nil {
		return fmt.Errorf("lock %s: %w", f.Name(), err)
	}
	return nil
}

// unlock drops the lock tryLock or waitLock took on f.
func unlock(f *os.File) error {
	var ol windows.Overlapped
	if err := windows.UnlockFileEx(windows.Handle(f.Fd()), 0, 1, 0, &ol); err != nil {
		return fmt.Errorf("unlock %s: %w", f.Name(), err)
	}
	return nil
}
