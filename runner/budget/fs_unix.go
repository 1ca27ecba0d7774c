//go:build unix && !aix

package budget

import (
	"errors"
	"fmt"
	"io"
	"os"

	"golang.org/x/sys/unix"
)

// stateDir is the open state directory. Every file in it is reached
// through the directory's descriptor with O_NOFOLLOW, so neither a symlink
// put in place of a file nor one put in place of the directory after it was
// checked is ever followed.
type stateDir struct {
	path string
	fd   int
}

// openStateDir creates path (mode 0700, parents included) unless it exists,
// and opens it after checking that it is a real directory, not a symlink,
// owned by the effective user and private to it (no permission for group
// or others). A directory that is not private is refused, not made
// private: retry does not change the mode of a directory it did not make.
func openStateDir(path string) (*stateDir, error) {
	if err := os.MkdirAll(path, 0o700); err != nil {
		return nil, fmt.Errorf("state directory %s: cannot create it: %w", path, unwrapPath(err))
	}
	fi, err := os.Lstat(path)
	if err != nil {
		return nil, fmt.Errorf("state directory %s: %w", path, unwrapPath(err))
	}
	if fi.Mode()&os.ModeSymlink != 0 {
		return nil, fmt.Errorf("state directory %s is a symlink; it must be a real directory", path)
	}
	fd, err := unix.Open(path, unix.O_RDONLY|unix.O_DIRECTORY|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0)
	if err != nil {
		return nil, fmt.Errorf("state directory %s: %w", path, err)
	}
	var st unix.Stat_t
	if err := unix.Fstat(fd, &st); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("state directory %s: %w", path, err)
	}
	if euid := os.Geteuid(); int(st.Uid) != euid {
		unix.Close(fd)
		return nil, fmt.Errorf("state directory %s is owned by uid %d, not by you (uid %d)", path, st.Uid, euid)
	}
	if st.Mode&0o022 != 0 {
		unix.Close(fd)
		return nil, fmt.Errorf("state directory %s is writable by others (mode %04o); run chmod 700 on it", path, st.Mode&0o7777)
	}
	if st.Mode&0o077 != 0 {
		unix.Close(fd)
		return nil, fmt.Errorf("state directory %s is not private to you (mode %04o); run chmod 700 on it", path, st.Mode&0o7777)
	}
	if err := unix.Faccessat(fd, ".", unix.W_OK|unix.X_OK, 0); err != nil {
		unix.Close(fd)
		return nil, fmt.Errorf("state directory %s is not writable: %w", path, err)
	}
	return &stateDir{path: path, fd: fd}, nil
}

// close closes the directory.
func (d *stateDir) close() error {
	return unix.Close(d.fd)
}

// openFile opens (creating it, mode 0600) the regular file name for reading
// and writing, without following a symlink.
func (d *stateDir) openFile(name string) (*os.File, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_RDWR|unix.O_CREAT|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0o600)
	if err != nil {
		if isSymlinkErr(err) {
			return nil, fmt.Errorf("%s/%s is a symlink; remove it", d.path, name)
		}
		return nil, fmt.Errorf("%s/%s: %w", d.path, name, err)
	}
	f := os.NewFile(uintptr(fd), d.path+"/"+name)
	if err := checkRegular(f); err != nil {
		f.Close()
		return nil, err
	}
	return f, nil
}

// readFile returns the content of the regular file name, at most limit+1
// bytes, and nil for a file that does not exist. errNotRegular means name
// is a symlink or not a regular file: it was not followed nor read.
func (d *stateDir) readFile(name string, limit int64) ([]byte, error) {
	fd, err := unix.Openat(d.fd, name, unix.O_RDONLY|unix.O_NOFOLLOW|unix.O_NONBLOCK|unix.O_CLOEXEC, 0)
	if errors.Is(err, unix.ENOENT) {
		return nil, nil
	}
	if err != nil {
		if isSymlinkErr(err) {
			return nil, errNotRegular
		}
		return nil, fmt.Errorf("%s/%s: %w", d.path, name, err)
	}
	f := os.NewFile(uintptr(fd), d.path+"/"+name)
	defer f.Close()
	if err := checkRegular(f); err != nil {
		return nil, err
	}
	return io.ReadAll(io.LimitReader(f, limit+1))
}

// writeFile replaces name with a new file (mode 0600) holding data: it is
// written beside it under a temporary name and renamed over it, so a reader
// sees the old content or the new, never a part. The rename replaces a
// symlink at name; it never writes through one.
func (d *stateDir) writeFile(name string, data []byte) error {
	tmp := name + ".tmp"
	if err := unix.Unlinkat(d.fd, tmp, 0); err != nil && !errors.Is(err, unix.ENOENT) {
		return fmt.Errorf("%s/%s: %w", d.path, tmp, err)
	}
	fd, err := unix.Openat(d.fd, tmp, unix.O_WRONLY|unix.O_CREAT|unix.O_EXCL|unix.O_NOFOLLOW|unix.O_CLOEXEC, 0o600)
	if err != nil {
		return fmt.Errorf("%s/%s: %w", d.path, tmp, err)
	}
	f := os.NewFile(uintptr(fd), d.path+"/"+tmp)
	_, werr := f.Write(data)
	cerr := f.Close()
	if err := errors.Join(werr, cerr); err != nil {
		unix.Unlinkat(d.fd, tmp, 0)
		return err
	}
	if err := unix.Renameat(d.fd, tmp, d.fd, name); err != nil {
		unix.Unlinkat(d.fd, tmp, 0)
		return fmt.Errorf("%s/%s: %w", d.path, name, err)
	}
	return nil
}

// tryLock takes an exclusive lock on f without waiting, and reports whether
// it got it. The lock belongs to f's open file description: another open of
// the same file, in this process or another, cannot take it until f is
// unlocked or closed, and the kernel drops it when the process dies.
func tryLock(f *os.File) (bool, error) {
	err := unix.Flock(int(f.Fd()), unix.LOCK_EX|unix.LOCK_NB)
	if err == nil {
		return true, nil
	}
	if errors.Is(err, unix.EWOULDBLOCK) || errors.Is(err, unix.EAGAIN) {
		return false, nil
	}
	return false, fmt.Errorf("lock %s: %w", f.Name(), err)
}

// waitLock takes an exclusive lock on f, waiting as long as it takes.
func waitLock(f *os.File) error {
	for {
		err := unix.Flock(int(f.Fd()), unix.LOCK_EX)
		if errors.Is(err, unix.EINTR) {
			continue
		}
		if err != nil {
			return fmt.Errorf("lock %s: %w", f.Name(), err)
		}
		return nil
	}
}

// unlock drops the lock tryLock or waitLock took on f.
func unlock(f *os.File) error {
	if err := unix.Flock(int(f.Fd()), unix.LOCK_UN); err != nil {
		return fmt.Errorf("unlock %s: %w", f.Name(), err)
	}
	return nil
}

// isSymlinkErr reports whether err is what open with O_NOFOLLOW returns for
// a symlink: ELOOP on Linux, macOS and OpenBSD, EMLINK on FreeBSD. Other
// systems refuse it with another error, which is reported as it is.
func isSymlinkErr(err error) bool {
	return errors.Is(err, unix.ELOOP) || errors.Is(err, unix.EMLINK)
}

// checkRegular returns errNotRegular unless f is a regular file.
func checkRegular(f *os.File) error {
	fi, err := f.Stat()
	if err != nil {
		return err
	}
	if !fi.Mode().IsRegular() {
		return fmt.Errorf("%s: %w", f.Name(), errNotRegular)
	}
	return nil
}
