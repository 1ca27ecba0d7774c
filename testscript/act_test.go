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

// TestActWorkflow runs the workflow that uses the action as ./ for real,
// with nektos/act running its Linux job's steps on this machine: the
// checkout, building retry onto PATH, a nick-fields/retry step, a failing
// one, one retried at its timeout, one whose last attempt sets outputs in
// a working directory, and the step that checks their outputs.
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
	ctx, cancel := context.WithTimeout(context.Background(), 5*time.Minute)
	defer cancel()
	cmd := exec.CommandContext(ctx, act,
		"-W", filepath.Join(".github", "workflows", "action.yml"),
		"-j", "nick-fields-step", "--matrix", "os:ubuntu-latest",
		"-P", "ubuntu-latest=-self-hosted")
	cmd.Dir = root
	out, err := cmd.CombinedOutput()
	if err != nil {
		t.Fatalf("act: %v\n%s", err, out)
	}
	for _, want := range []string{
		"Success - Main a flaky step, as nick-fields/retry runs it",
		"Success - Main a step that keeps failing, and goes on",
		"Success - Main a step whose first attempt hangs, retried at its timeout",
		"Success - Main a step whose last attempt sets outputs, in a working directory",
		"Success - Main the outputs",
		"Job succeeded",
	} {
		if !strings.Contains(string(out), want) {
			t.Errorf("act's output lacks %q:\n%s", want, out)
		}
	}
}
