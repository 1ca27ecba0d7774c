//go:build windows

package proc

import (
	"errors"
	"fmt"
	"os/exec"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/windows"
)

// terminatedCode is the exit status Signal gives the processes it
// terminates, as os.Process.Kill does.
const terminatedCode = 1

// groupSys is the job object that holds the group's processes, and the
// signal that Signal terminated them for. A job is closed once the group
// is released (see Watch); job is 0 when none could be made (the system
// refused a job inside the one retry runs in), and Signal then reaches
// only the first process.
type groupSys struct {
	mu         sync.Mutex
	job        windows.Handle
	terminated syscall.Signal // the first signal Signal acted on; 0: none
}

// Prepare starts cmd in a new process group, which keeps Ctrl-C away
// from it: retry decides what a Ctrl-C does to the attempt.
func Prepare(cmd *exec.Cmd) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= syscall.CREATE_NEW_PROCESS_GROUP
}

// Start starts cmd, prepared with Prepare, with start (cmd.Start, or a
// function that calls it) and returns its group. The process is created
// suspended and put in a job object of its own before it runs, so every
// process it starts is in the job too, and cannot leave it. The job
// terminates them all when its last handle closes: when retry dies, as
// the Unix watchdog does.
func Start(cmd *exec.Cmd, start func() error) (*Group, error) {
	if cmd.SysProcAttr == nil {
		cmd.SysProcAttr = &syscall.SysProcAttr{}
	}
	cmd.SysProcAttr.CreationFlags |= windows.CREATE_SUSPENDED
	err := start()
	cmd.SysProcAttr.CreationFlags &^= windows.CREATE_SUSPENDED
	if err != nil {
		return nil, err
	}
	g := &Group{cmd: cmd}
	g.sys.job = newJob(uint32(cmd.Process.Pid))
	if err := resume(uint32(cmd.Process.Pid)); err != nil {
		g.close()
		_ = cmd.Process.Kill()
		_ = cmd.Wait()
		return nil, fmt.Errorf("cannot resume the new process: %w", err)
	}
	return g, nil
}

// newJob makes a job object that terminates its processes when its last
// handle closes, and puts the process pid in it. It returns 0 when that
// cannot be done: the process then runs in no job of its own.
func newJob(pid uint32) windows.Handle {
	job, err := windows.CreateJobObject(nil, nil)
	if err != nil {
		return 0
	}
	if setKillOnClose(job, true) != nil || assign(job, pid) != nil {
		_ = windows.CloseHandle(job)
		return 0
	}
	return job
}

// setKillOnClose sets or clears the job's limit that terminates its
// processes when its last handle closes.
func setKillOnClose(job windows.Handle, on bool) error {
	var info windows.JOBOBJECT_EXTENDED_LIMIT_INFORMATION
	if on {
		info.BasicLimitInformation.LimitFlags = windows.JOB_OBJECT_LIMIT_KILL_ON_JOB_CLOSE
	}
	_, err := windows.SetInformationJobObject(job, windows.JobObjectExtendedLimitInformation,
		uintptr(unsafe.Pointer(&info)), uint32(unsafe.Sizeof(info)))
	return err
}

func assign(job windows.Handle, pid uint32) error {
	h, err := windows.OpenProcess(windows.PROCESS_SET_QUOTA|windows.PROCESS_TERMINATE, false, pid)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(h)
	return windows.AssignProcessToJobObject(job, h)
}

// resume lets the suspended process pid run: it resumes its threads, the
// one it was created with.
func resume(pid uint32) error {
	snap, err := windows.CreateToolhelp32Snapshot(windows.TH32CS_SNAPTHREAD, 0)
	if err != nil {
		return err
	}
	defer windows.CloseHandle(snap)
	te := windows.ThreadEntry32{Size: uint32(unsafe.Sizeof(windows.ThreadEntry32{}))}
	resumed := false
	for err = windows.Thread32First(snap, &te); err == nil; err = windows.Thread32Next(snap, &te) {
		if te.OwnerProcessID != pid {
			continue
		}
		th, err := windows.OpenThread(windows.THREAD_SUSPEND_RESUME, false, te.ThreadID)
		if err != nil {
			return err
		}
		_, err = windows.ResumeThread(th)
		windows.CloseHandle(th)
		if err != nil {
			return err
		}
		resumed = true
	}
	if !resumed {
		return errors.New("no thread of it found")
	}
	return nil
}

// Signal terminates every process of the group: Windows cannot deliver
// another signal, nor let a process end gracefully. Wait then reports the
// first process as killed by sig, as on Unix. A group that is already
// gone is not an error.
func (g *Group) Signal(sig syscall.Signal) error {
	g.sys.mu.Lock()
	defer g.sys.mu.Unlock()
	if g.sys.terminated == 0 {
		g.sys.terminated = sig
	}
	if g.sys.job != 0 {
		return windows.TerminateJobObject(g.sys.job, terminatedCode)
	}
	err := g.cmd.Process.Kill()
	if errors.Is(err, windows.ERROR_ACCESS_DENIED) {
		return nil // it has exited
	}
	return err
}

// basicAccounting is JOBOBJECT_BASIC_ACCOUNTING_INFORMATION.
type basicAccounting struct {
	TotalUserTime, TotalKernelTime                       int64
	ThisPeriodTotalUserTime, ThisPeriodTotalKernelTime   int64
	TotalPageFaultCount, TotalProcesses, ActiveProcesses uint32
	TotalTerminatedProcesses                             uint32
}

// Running reports whether a process of the group still runs, now that its
// first process has been waited for; false without a job, which leaves
// nothing to ask.
func (g *Group) Running() bool {
	g.sys.mu.Lock()
	defer g.sys.mu.Unlock()
	if g.sys.job == 0 {
		return false
	}
	var acct basicAccounting
	err := windows.QueryInformationJobObject(g.sys.job, windows.JobObjectBasicAccountingInformation,
		uintptr(unsafe.Pointer(&acct)), uint32(unsafe.Sizeof(acct)), nil)
	return err != nil || acct.ActiveProcesses > 0
}

// close closes the job without terminating what still runs in it, which
// is left alone from then on, as on Unix.
func (g *Group) close() {
	g.sys.mu.Lock()
	defer g.sys.mu.Unlock()
	if g.sys.job == 0 {
		return
	}
	_ = setKillOnClose(g.sys.job, false)
	_ = windows.CloseHandle(g.sys.job)
	g.sys.job = 0
}

// terminatedBy returns the signal that Signal acted on, 0 when none.
func (g *Group) terminatedBy() syscall.Signal {
	g.sys.mu.Lock()
	defer g.sys.mu.Unlock()
	return g.sys.terminated
}
