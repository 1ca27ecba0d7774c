//go:build windows

package proc

import (
	"os/exec"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// startTree starts cmd /c script as an attempt is started, and waits
// until its job holds n processes.
func startTree(t *testing.T, script string, n int) (*Group, []uint32) {
	t.Helper()
	cmd := exec.Command("cmd", "/c", script)
	Prepare(cmd)
	g, err := Start(cmd, cmd.Start)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		_ = g.Signal(syscall.SIGKILL)
		g.close()
	})
	for start := time.Now(); ; time.Sleep(10 * time.Millisecond) {
		if pids := jobPids(t, g); len(pids) >= n {
			return g, pids
		}
		if time.Since(start) > 20*time.Second {
			t.Fatalf("the job of %q holds %v after 20s; want %d processes", script, jobPids(t, g), n)
		}
	}
}

// jobPids returns the processes the group's job holds.
func jobPids(t *testing.T, g *Group) []uint32 {
	t.Helper()
	var list struct {
		assigned, listed uint32
		pids             [64]uintptr
	}
	g.sys.mu.Lock()
	defer g.sys.mu.Unlock()
	err := windows.QueryInformationJobObject(g.sys.job, windows.JobObjectBasicProcessIdList,
		uintptr(unsafe.Pointer(&list)), uint32(unsafe.Sizeof(list)), nil)
	if err != nil {
		t.Fatalf("the group has no job: %v", err)
	}
	pids := make([]uint32, list.listed)
	for i := range pids {
		pids[i] = uint32(list.pids[i])
	}
	return pids
}

// ended reports whether process pid ends within limit.
func ended(pid uint32, limit time.Duration) bool {
	h, err := windows.OpenProcess(windows.SYNCHRONIZE, false, pid)
	if err != nil {
		return true // gone already
	}
	defer windows.CloseHandle(h)
	ev, _ := windows.WaitForSingleObject(h, uint32(limit/time.Millisecond))
	return ev == windows.WAIT_OBJECT_0
}

func TestSignalEndsTheWholeTree(t *testing.T) {
	// cmd, the cmd it starts, and ping
	g, pids := startTree(t, "cmd /c ping -n 30 127.0.0.1 >nul", 3)
	if !g.Running() {
		t.Fatal("Running is false while the tree runs")
	}
	if err := g.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	if st := g.Wait(nil, nil); st.Signal != syscall.SIGTERM || st.ExitCode != -1 {
		t.Errorf("Wait = %+v; want killed by SIGTERM", st)
	}
	for _, pid := range pids {
		if !ended(pid, 5*time.Second) {
			t.Errorf("process %d of the tree still runs 5s after Signal", pid)
		}
	}
	if g.Running() {
		t.Error("Running is true after the tree ended")
	}
}

func TestWaitReportsTheExitStatus(t *testing.T) {
	cmd := exec.Command("cmd", "/c", "exit 3")
	Prepare(cmd)
	g, err := Start(cmd, cmd.Start)
	if err != nil {
		t.Fatal(err)
	}
	defer g.close()
	if st := g.Wait(nil, nil); st.ExitCode != 3 || st.Signal != 0 {
		t.Errorf("Wait = %+v; want exit 3", st)
	}
}

func TestCloseLeavesWhatOutlivesTheFirstProcess(t *testing.T) {
	// cmd starts ping in the background and exits at once
	cmd := exec.Command("cmd", "/c", "start /b ping -n 3 127.0.0.1 >nul")
	Prepare(cmd)
	g, err := Start(cmd, cmd.Start)
	if err != nil {
		t.Fatal(err)
	}
	g.Wait(nil, nil)
	// what is left in the job once cmd (and Wine's start.exe) ended: ping
	var left []uint32
	for start := time.Now(); len(left) != 1 && time.Since(start) < 10*time.Second; time.Sleep(10 * time.Millisecond) {
		left = jobPids(t, g)
	}
	if len(left) != 1 {
		t.Fatalf("the job holds %v after cmd exited; want ping alone", left)
	}
	g.close()
	if ended(left[0], 500*time.Millisecond) {
		t.Fatal("ping ended with the job")
	}
	if !ended(left[0], 10*time.Second) {
		t.Error("ping -n 3 still runs after 10s")
	}
}

func TestStartFailsWithoutAProcess(t *testing.T) {
	cmd := exec.Command(`C:\no\such\program.exe`)
	Prepare(cmd)
	if g, err := Start(cmd, cmd.Start); err == nil {
		g.close()
		t.Fatal("Start succeeded")
	}
	if cmd.SysProcAttr.CreationFlags&windows.CREATE_SUSPENDED != 0 {
		t.Error("CREATE_SUSPENDED left in the creation flags")
	}
}
