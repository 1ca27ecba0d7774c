//go:build windows

package proc

import (
	"os/exec"
	"time"
)

// Watch does nothing on Windows, where retry does not make process
// groups; release does nothing either.
func Watch(*exec.Cmd, time.Duration) (release func()) { return func() {} }
