package proc

import "syscall"

// setParentDeathSignal asks Linux to SIGKILL the attempt's first process
// when the thread that started it dies. The caller keeps that thread
// alive for the attempt's life (runtime.LockOSThread).
func setParentDeathSignal(attr *syscall.SysProcAttr) {
	attr.Pdeathsig = syscall.SIGKILL
}
