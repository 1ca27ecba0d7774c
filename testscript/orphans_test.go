//go:build unix

package testscript_test

import (
	"bytes"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"
)

// retry SIGKILLed early in an attempt leaves nothing of the attempt's
// group behind: not the first process (on Linux its parent-death signal)
// and not what it started in the background (the watchdog, which starts
// 2 ms into the attempt to cover it from its first 10 ms on; issue 14).
// The --on-retry command is stopped as an attempt is, and so dies with
// retry too.
func TestKilledRetryLeavesNoOrphans(t *testing.T) {
	path, err := exec.LookPath("retry")
	if err != nil {
		t.Fatal(err)
	}
	const group = `sleep 30 & echo $$ >ready; sleep 30`
	for _, tc := range []struct {
		name string
		args []string
	}{
		{"attempt", []string{"-a", "2", "--", "sh", "-c", group}},
		{"on-retry", []string{"-a", "2", "--delay", "1ms", "--on-retry", group, "--", "false"}},
	} {
		for _, after := range []time.Duration{10 * time.Millisecond, 50 * time.Millisecond, 100 * time.Millisecond, 200 * time.Millisecond} {
			t.Run(tc.name+"/"+after.String(), func(t *testing.T) {
				killedRetryLeavesNoOrphans(t, path, tc.args, after)
			})
		}
	}
}

// killedRetryLeavesNoOrphans runs retry with args, whose process writes
// its group's id to the file ready, SIGKILLs retry after it, and fails
// unless the group is gone soon after.
//
// The kill waits for the watchdog to run too: on a loaded machine its
// start, 2 ms in, can come later than 10 ms, and a kill before it is a
// race the test would lose, not a fault of retry's. A watchdog that does
// not start within watchdogStartLimit fails the test, and so does a group
// that outlives retry by more than orphanLimit (the docs say a second;
// the attempt's sleeps would outlive it by 30 s).
func killedRetryLeavesNoOrphans(t *testing.T, path string, args []string, after time.Duration) {
	dir := t.TempDir()
	cmd := exec.Command(path, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "GORACE="+noExitSleep())
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	ready := filepath.Join(dir, "ready")
	var pgid int
	deadline := time.Now().Add(10 * time.Second)
	for pgid == 0 {
		if b, err := os.ReadFile(ready); err == nil && bytes.HasSuffix(b, []byte("\n")) {
			pgid, _ = strconv.Atoi(strings.TrimSpace(string(b)))
			break
		}
		if time.Now().After(deadline) {
			cmd.Process.Kill()
			t.Fatal("the process did not start within 10s")
		}
		time.Sleep(time.Millisecond)
	}
	started := time.Now()
	t.Cleanup(func() { _ = syscall.Kill(-pgid, syscall.SIGKILL) })
	for !watchdogRuns(pgid) {
		if time.Since(started) > watchdogStartLimit {
			cmd.Process.Kill()
			t.Fatalf("no watchdog of the group %d ran within %v of the process's start", pgid, watchdogStartLimit)
		}
		time.Sleep(time.Millisecond)
	}
	watched := time.Since(started)
	time.Sleep(after - watched)
	if err := cmd.Process.Signal(syscall.SIGKILL); err != nil {
		t.Fatal(err)
	}
	_ = cmd.Wait()
	killed, at := time.Now(), time.Since(started)
	for groupAlive(pgid) {
		if time.Since(killed) > orphanLimit {
			t.Fatalf("retry SIGKILLed %v after the process started (its watchdog ran %v in): its group %d still has %s %v later",
				at.Round(time.Millisecond), watched.Round(time.Millisecond), pgid, groupMembers(pgid), orphanLimit)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// watchdogStartLimit and orphanLimit are wide margins, for a loaded
// machine, on the 10 ms the watchdog takes to start and the second the
// group takes to die after retry.
const (
	watchdogStartLimit = 5 * time.Second
	orphanLimit        = 5 * time.Second
)

// watchdogRuns reports whether a watchdog of the group pgid runs its
// script: its command line is then retry's watchdog's, so it no longer
// holds a copy of retry's descriptors from before its exec, and retry's
// death closes its pipe.
func watchdogRuns(pgid int) bool {
	want := []byte("\x00retry-watchdog\x00" + strconv.Itoa(pgid) + "\x00")
	entries, err := os.ReadDir("/proc")
	if err != nil { // no /proc (macOS): ask ps
		out, _ := exec.Command("ps", "-A", "-o", "command=").Output()
		return bytes.Contains(out, []byte("retry-watchdog "+strconv.Itoa(pgid)+"\n"))
	}
	for _, e := range entries {
		if _, err := strconv.Atoi(e.Name()); err != nil {
			continue
		}
		if cmdline, err := os.ReadFile("/proc/" + e.Name() + "/cmdline"); err == nil && bytes.HasSuffix(cmdline, want) {
			return true
		}
	}
	return false
}

// groupAlive reports whether a process of the group pgid runs (a zombie
// left for a non-reaping init counts as ended).
func groupAlive(pgid int) bool {
	entries, err := os.ReadDir("/proc")
	if err != nil {
		return syscall.Kill(-pgid, 0) == nil
	}
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil && inGroup(pid, pgid) {
			return true
		}
	}
	return false
}

// inGroup reports whether pid is a live process, not a zombie, of the
// group pgid, from /proc/PID/stat.
func inGroup(pid, pgid int) bool {
	stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(stat, ')')
	if i < 0 {
		return false
	}
	// After the name: state, ppid, pgrp.
	f := strings.Fields(string(stat[i+1:]))
	return len(f) > 2 && f[0] != "Z" && f[2] == strconv.Itoa(pgid)
}

// groupMembers lists the group's live processes, for a failure message.
func groupMembers(pgid int) string {
	var pids []string
	entries, _ := os.ReadDir("/proc")
	for _, e := range entries {
		if pid, err := strconv.Atoi(e.Name()); err == nil && inGroup(pid, pgid) {
			cmdline, _ := os.ReadFile(fmt.Sprintf("/proc/%d/cmdline", pid))
			pids = append(pids, fmt.Sprintf("%d (%s)", pid, bytes.ReplaceAll(bytes.TrimRight(cmdline, "\x00"), []byte{0}, []byte{' '})))
		}
	}
	if len(pids) == 0 {
		return "processes"
	}
	return strings.Join(pids, ", ")
}
