//go:build unix && !linux

package proc

import (
	"syscall"
	"testing"
)

// selfSignal sends sig to the process.
func selfSignal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	if err := syscall.Kill(syscall.Getpid(), sig); err != nil {
		t.Fatal(err)
	}
}
