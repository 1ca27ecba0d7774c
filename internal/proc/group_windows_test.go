//go:build windows

package proc

import (
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
	"unsafe"

	"golang.org/x/sys/windows"
)

// startTree starts cmd /c script as an attempt is started, waits until
// program runs in its job, and returns the group and the job's processes.
func startTree(t *testing.T, script, program string) (*Group, []uint32) {
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
	for start := time.Now(); jobProgram(t, g, program) == 0; time.Sleep(10 * time.Millisecond) {
		if time.Since(start) > 20*time.Second {
			t.Fatalf("no %s in the job of %q after 20s; it holds %v", program, script, jobPids(t, g))
		}
	}
	return g, jobPids(t, g)
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

// jobProgram returns a process of the group's job that runs the program
// name ("ping.exe"), 0 when none does.
func jobProgram(t *testing.T, g *Group, name string) uint32 {
	t.Helper()
	for _, pid := range jobPids(t, g) {
		h, err := windows.OpenProcess(windows.PROCESS_QUERY_LIMITED_INFORMATION, false, pid)
		if err != nil {
			continue
		}
		buf := make([]uint16, windows.MAX_PATH)
		n := uint32(len(buf))
		err = windows.QueryFullProcessImageName(h, 0, &buf[0], &n)
		windows.CloseHandle(h)
		if err == nil && strings.EqualFold(filepath.Base(windows.UTF16ToString(buf[:n])), name) {
			return pid
		}
	}
	return 0
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
	g, pids := startTree(t, "cmd /c ping -n 30 127.0.0.1 >nul", "ping.exe")
	if len(pids) < 3 {
		t.Fatalf("the job holds %v; want cmd, cmd and ping", pids)
	}
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
	var ping uint32
	for start := time.Now(); ping == 0 && time.Since(start) < 10*time.Second; time.Sleep(10 * time.Millisecond) {
		ping = jobProgram(t, g, "ping.exe")
	}
	if ping == 0 {
		t.Fatalf("no ping in the job, which holds %v", jobPids(t, g))
	}
	g.close()
	if ended(ping, 500*time.Millisecond) {
		t.Fatal("ping ended with the job")
	}
	if !ended(ping, 10*time.Second) {
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
