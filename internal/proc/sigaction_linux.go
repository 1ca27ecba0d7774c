package proc

import (
	"syscall"
	"unsafe"
)

// setDefaultAction sets sig's action to the system's default (SIG_DFL)
// with rt_sigaction itself. os/signal.Reset would restore Go's own
// handling instead, which ignores SIGUSR1 and prints a goroutine dump for
// SIGQUIT rather than dying by it.
func setDefaultAction(sig syscall.Signal) bool {
	if sig == syscall.SIGKILL || sig == syscall.SIGSTOP {
		return true // their action cannot change
	}
	// All zero: handler SIG_DFL, no flags, an empty mask, whatever the
	// architecture's field order; large enough for every layout.
	var act [8]uint64
	for _, setsize := range []uintptr{8, 16} { // 16 on MIPS
		_, _, errno := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(&act)), 0, setsize, 0, 0)
		if errno == 0 {
			return true
		}
	}
	return false
}
