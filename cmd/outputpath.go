package cmd

import (
	"errors"
	"io/fs"
	"os"
	"path/filepath"
)

// checkOutputPath reports a path given to flag (--summary-file,
// --metrics-file) that retry could not write when the operation ends, as
// bad input before the command runs: a directory, a directory that does
// not exist, or, when probe is true, one where retry cannot create a file.
// The probe creates the temporary file the write would create, and removes
// it. example is a file name to suggest when path is a directory.
//
// A device or a FIFO at path (/dev/stderr) is written into, not replaced:
// its directory need not be writable.
func checkOutputPath(flag, path, example string, probe bool) error {
	fi, err := os.Stat(path)
	switch {
	case err == nil && fi.IsDir():
		return usagef("give the path of a file, such as "+filepath.Join(path, example), "%s: %s is a directory", flag, path)
	case err == nil && !fi.Mode().IsRegular():
		return nil
	}
	target, err := followLinks(path)
	if err != nil {
		return usagef("", "%s: cannot write %s: %s", flag, path, pathErrorText(err))
	}
	dir := filepath.Dir(target)
	di, err := os.Stat(dir)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return usagef("create the directory first: mkdir -p "+shellQuote([]string{dir}), "%s: the directory of %s does not exist", flag, path)
	case err != nil:
		return usagef("", "%s: %s", flag, err)
	case !di.IsDir():
		return usagef("", "%s: %s is not a directory", flag, dir)
	}
	if !probe {
		return nil
	}
	f, err := os.CreateTemp(dir, ".retry-probe-*")
	if err != nil {
		return usagef("choose a directory retry can write in, or make "+dir+" writable", "%s: cannot write %s: %s", flag, path, pathErrorText(err))
	}
	f.Close()
	os.Remove(f.Name())
	return nil
}

// pathErrorText returns why an operation on a file failed, without the
// name of the file: the temporary file retry chose is not the user's.
func pathErrorText(err error) string {
	var pe *fs.PathError
	var le *os.LinkError
	switch {
	case errors.As(err, &pe):
		return pe.Err.Error()
	case errors.As(err, &le):
		return le.Err.Error()
	}
	return err.Error()
}
