//go:build !(unix && !aix) && !windows

package budget

import (
	"errors"
	"os"
)

// errUnsupported is returned where no file locking is available (AIX,
// Plan 9, WebAssembly): budgets and concurrency caps cannot be shared
// safely there, so they are refused rather than approximated.
var errUnsupported = errors.New("budgets and concurrency caps are not supported on this system")

// stateDir is never opened on this system.
type stateDir struct{ path string }

func openStateDir(string) (*stateDir, error)               { return nil, errUnsupported }
func (d *stateDir) close() error                           { return nil }
func (d *stateDir) openFile(string) (*os.File, error)      { return nil, errUnsupported }
func (d *stateDir) readFile(string, int64) ([]byte, error) { return nil, errUnsupported }
func (d *stateDir) writeFile(string, []byte) error         { return errUnsupported }
func tryLock(*os.File) (bool, error)                       { return false, errUnsupported }
func waitLock(*os.File) error                              { return errUnsupported }
func unlock(*os.File) error                                { return errUnsupported }
