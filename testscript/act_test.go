//go:build unix

package testscript_test

import (
	"context"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// TestActWorkflow runs the workflow that uses the actions as ./ and ./run
// for real, with nektos/act running its Linux jobs' steps on this machine.
// nick-fields-step: the checkout, building retry onto PATH, a
// nick-fields/retry step (a flaky pass: flaky=true, and one annotation
// that says so), a failing one, one retried at its timeout, one
// whose last attempt sets outputs in a working directory, and the step
// that checks their outputs. retried-action: a flaky
// JavaScript action retried by ./run, a later step reading its outputs,
// and its post, which checks that it runs once, after the job's last step.
func TestActWorkflow(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: act builds retry and runs a whole job")
	}
	act, err := exec.LookPath("act")
	if err != nil {
		t.Skip("act (github.com/nektos/act) is not on PATH: .ci/run installs it")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	for _, job := range []struct {
		name  string
		wants []string
		node  bool
		count map[string]int // how many times each is in the output
	}{
		{"nick-fields-step", []string{
			"Success - Main a flaky step, as nick-fields/retry runs it",
			"Success - Main a step that keeps failing, and goes on",
			"Success - Main a step whose first attempt hangs, retried at its timeout",
			"Success - Main a step whose last attempt sets outputs, in a working directory",
			"Success - Main the outputs",
			"Job succeeded",
		}, false, map[string]int{
			// three steps pass on their second attempt: each such flaky
			// pass is one annotation (and flaky=true, which the workflow
			// checks)
			"::warning title=retry bash::passed on attempt 2 of 3 (flaky)": 3,
		}},
		{"retried-action", []string{
			"Success - Main a flaky JavaScript action, retried",
			"Success - Main the outputs",
			"flaky post: ran once, after: pre, main 1, main 2, main 3, last step",
			"Success - Post a flaky JavaScript action, retried",
			"Job succeeded",
		}, true, nil},
	} {
		t.Run(job.name, func(t *testing.T) {
			if _, err := exec.LookPath("node"); job.node && err != nil {
				t.Skip("node is not on PATH: act runs the JavaScript action at run/ with it")
			}
			ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
			defer cancel()
			cmd := exec.CommandContext(ctx, act,
				"-W", filepath.Join(".github", "workflows", "action.yml"),
				"-j", job.name, "--matrix", "os:ubuntu-latest",
				"-P", "ubuntu-latest=-self-hosted")
			cmd.Dir = root
			out, err := cmd.CombinedOutput()
			if err != nil {
				t.Fatalf("act: %v\n%s", err, out)
			}
			for _, want := range job.wants {
				if !strings.Contains(string(out), want) {
					t.Errorf("act's output lacks %q:\n%s", want, out)
				}
			}
			for want, count := range job.count {
				if n := strings.Count(string(out), want); n != count {
					t.Errorf("act's output has %q %d times, want %d:\n%s", want, n, count, out)
				}
			}
		})
	}
}
