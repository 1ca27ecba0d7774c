package stdio

import (
	"errors"
	"os"
)

// tempFile is a private temporary file that disappears from the file
// system as early as the system allows: at once where an open file can be
// unlinked (Unix), else when it is closed (Windows).
type tempFile struct {
	*os.File
	name string // still to remove on close; empty once removed
}

func createTemp(dir, pattern string) (*tempFile, error) {
	f, err := os.CreateTemp(dir, pattern) // mode 0600
	if err != nil {
		return nil, err
	}
	t := &tempFile{File: f, name: f.Name()}
	if os.Remove(t.name) == nil {
		t.name = ""
	}
	return t, nil
}

// discard closes the file and removes it if that could not happen earlier.
func (t *tempFile) discard() error {
	err := t.Close()
	if errors.Is(err, os.ErrClosed) {
		err = nil
	}
	if t.name != "" {
		if rmErr := os.Remove(t.name); rmErr != nil && !errors.Is(rmErr, os.ErrNotExist) {
			err = errors.Join(err, rmErr)
		}
		t.name = ""
	}
	return err
}
