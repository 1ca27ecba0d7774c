//go:build unix

// Package testscript_test runs retry's black-box scripts: each file in
// testdata is a session at a terminal, with retry on $PATH. It is tests,
// not API.
package testscript_test

import (
	"flag"
	"maps"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/b0a38808/retry/cmd"
	"github.com/b0a38808/retry/testscript/internal/scriptcmd"
)

var update = flag.Bool("u", false, "update the scripts' golden files")

func TestMain(m *testing.M) {
	testscript.Main(m, map[string]func(){
		"retry":     func() { os.Exit(cmd.Execute("v0.0.0-test", os.Args[1:])) },
		"onattempt": onAttemptMain,
		"action":    actionMain,
		"runaction": runActionMain,
	})
}

func TestScripts(t *testing.T) {
	cmds := map[string]func(*testscript.TestScript, bool, []string){
		"exitcode":    exitcode,
		"gone":        gone,
		"bodyserver":  bodyserver,
		"httpserver":  httpserver,
		"normalize":   normalizeCmd,
		"pathwithout": scriptcmd.PathWithout,
	}
	maps.Copy(cmds, signalCmds())
	maps.Copy(cmds, serverCmds())
	maps.Copy(cmds, redisCmds())
	maps.Copy(cmds, deployServerCmds())
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata",
		UpdateScripts:       *update,
		RequireExplicitExec: true,
		Cmds:                cmds,
		Condition:           anyCondition(condition, deployCondition),
		Setup: func(env *testscript.Env) error {
			isolate(env)
			// The go command's build cache, shared with the scripts that
			// run go: a cold one would build the standard library.
			env.Setenv("GOCACHE", goCache())
			return nil
		},
	})
}

// isolate sets what every script's environment needs: none of an
// enclosing retry's settings, none of the CI's that the tests run under
// (a script sets those it tests), and GORACE (noExitSleep).
func isolate(env *testscript.Env) {
	for _, name := range []string{"RETRY_DEPTH", "RETRY_DEADLINE", "RETRY_ATTEMPT", "RETRY_MAX_ATTEMPTS", "RETRY_IDEMPOTENCY_KEY", "RETRY_SLOT", "RETRY_BUDGET_STORE"} {
		env.Setenv(name, "")
	}
	for _, name := range ciVariables {
		env.Setenv(name, "")
	}
	env.Setenv("GORACE", noExitSleep())
}

// ciVariables are the variables that retry reads to detect a CI system
// and its job attempt, and those it writes to.
var ciVariables = []string{
	"GITHUB_ACTIONS", "GITHUB_RUN_ATTEMPT", "GITHUB_STEP_SUMMARY",
	"GITLAB_CI",
	"TF_BUILD", "SYSTEM_JOBATTEMPT",
	"BUILDKITE", "BUILDKITE_RETRY_COUNT", "BUILDKITE_JOB_ID",
	"JENKINS_URL",
	"CIRCLECI",
}

// goCache returns the go command's build cache directory, or "" when go
// is not there.
var goCache = sync.OnceValue(func() string {
	out, err := exec.Command("go", "env", "GOCACHE").Output()
	if err != nil {
		return ""
	}
	return strings.TrimSpace(string(out))
})

// noExitSleep returns GORACE for the commands the tests run: a binary
// built with the race detector sleeps a second as it exits unless told not
// to, and retry runs many times per script.
func noExitSleep() string {
	return strings.TrimSpace(os.Getenv("GORACE") + " atexit_sleep_ms=0")
}

// exitcode N COMMAND [ARG...]: see scriptcmd.Exitcode.
func exitcode(ts *testscript.TestScript, neg bool, args []string) {
	scriptcmd.Exitcode(ts, neg, args)
}

// gone PIDFILE... asserts that each process whose pid a file holds has
// ended (a zombie left for a non-reaping init counts as ended), waiting up
// to two seconds for it. With !, it asserts that each is still running.
func gone(ts *testscript.TestScript, neg bool, args []string) {
	if len(args) == 0 {
		ts.Fatalf("usage: gone pidfile...")
	}
	for _, file := range args {
		pid, err := strconv.Atoi(strings.TrimSpace(ts.ReadFile(file)))
		if err != nil {
			ts.Fatalf("gone: %s: %v", file, err)
		}
		deadline := time.Now().Add(2 * time.Second)
		for running(pid) && !neg && time.Now().Before(deadline) {
			time.Sleep(10 * time.Millisecond)
		}
		if running(pid) != neg {
			if neg {
				ts.Fatalf("process %d (%s) has ended", pid, file)
			}
			ts.Fatalf("process %d (%s) is still running", pid, file)
		}
	}
}

// running reports whether pid is a live process, not a zombie.
func running(pid int) bool {
	if stat, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat"); err == nil {
		// The state follows the parenthesised command name.
		if i := strings.LastIndexByte(string(stat), ')'); i >= 0 && i+2 < len(stat) {
			return stat[i+2] != 'Z'
		}
	}
	return syscall.Kill(pid, 0) == nil
}
