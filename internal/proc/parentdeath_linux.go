package proc

import "syscall"

// setParentDeathSignal asks Linux to SIGKILL the attempt's first process
// when the thread that started it dies. Go ends a thread only when a
// goroutine locked to it (runtime.LockOSThread) returns, and retry locks
// none (TestNoThreadLocked), so that thread lives as long as retry: a
// lock would also cost every run a thread of the runtime's own.
func setParentDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}
