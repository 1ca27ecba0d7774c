package proc

import (
	"runtime"
	"syscall"
	"testing"
)

// selfSignal sends sig to the calling thread, which runs its handler
// before the call returns.
func selfSignal(t *testing.T, sig syscall.Signal) {
	t.Helper()
	runtime.LockOSThread()
	defer runtime.UnlockOSThread()
	if err := syscall.Tgkill(syscall.Getpid(), syscall.Gettid(), sig); err != nil {
		t.Fatal(err)
	}
}
