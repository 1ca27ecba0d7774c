//go:build unix

package testscript_test

import (
	"bufio"
	"errors"
	"fmt"
	"maps"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
	"go.yaml.in/yaml/v3"

	"github.com/b0a38808/retry/testscript/internal/scriptcmd"
)

// TestAction runs the scripts of testdata/action, which use the GitHub
// Action at the repository's root as a workflow step would: the command
// `action WITH.yml` runs action.yml's steps, with the inputs WITH.yml
// gives, on a runner made of environment variables.
func TestAction(t *testing.T) {
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("the action's steps run in bash, which is not on PATH")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	cmds := map[string]func(*testscript.TestScript, bool, []string){
		"releaseserver": releaseServer,
		"waitfile":      waitfile,
		"exitcode":      exitcode,
		"pathwithout":   scriptcmd.PathWithout,
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/action",
		RequireExplicitExec: true,
		Cmds:                cmds,
		Setup: func(env *testscript.Env) error {
			isolate(env)
			work := env.WorkDir
			for name, value := range map[string]string{
				"ACTION_DIR":          root,
				"ACTION_OUTPUTS":      filepath.Join(work, "outputs"),
				"GITHUB_ACTIONS":      "true",
				"GITHUB_STEP_SUMMARY": filepath.Join(work, "step-summary.md"),
				"RUNNER_OS":           "Linux",
				"RUNNER_ARCH":         "X64",
				"RUNNER_TEMP":         filepath.Join(work, "runner-temp"),
				"RUNNER_TOOL_CACHE":   filepath.Join(work, "tool-cache"),
				"XDG_STATE_HOME":      filepath.Join(work, "state"),
			} {
				env.Setenv(name, value)
			}
			return os.MkdirAll(filepath.Join(work, "runner-temp"), 0o755)
		},
	})
}

// TestActionScriptHasNoInput checks that no step of action.yml pastes an
// expression into its script, where the shell would run an input's value:
// each input reaches run.sh in an environment variable (testdata/action/
// injection.txtar runs the values that would show it).
func TestActionScriptHasNoInput(t *testing.T) {
	var meta actionMeta
	if err := readYAML(filepath.Join("..", "action.yml"), &meta); err != nil {
		t.Fatal(err)
	}
	for _, step := range meta.Runs.Steps {
		if strings.Contains(step.Run, "${{") {
			t.Errorf("step %s: run: holds an expression: %q", step.ID, step.Run)
		}
	}
}

// actionMeta is the part of action.yml that a runner reads.
type actionMeta struct {
	Inputs map[string]struct {
		Default *string `yaml:"default"`
	} `yaml:"inputs"`
	Outputs map[string]struct {
		Value string `yaml:"value"`
	} `yaml:"outputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID    string            `yaml:"id"`
			Shell string            `yaml:"shell"`
			Run   string            `yaml:"run"`
			Env   map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

// actionMain is the `action WITH.yml` command: it runs the composite
// action in $ACTION_DIR as GitHub's runner does, each step's `run:` in
// `bash --noprofile --norc -e -o pipefail FILE` with its `env:`, and writes
// the action's outputs to $ACTION_OUTPUTS, a NAME=VALUE line each. It
// passes on SIGINT and SIGTERM, as the runner does when a job is
// cancelled, and exits with the status of the step that failed.
// $ACTION_REF is github.action_ref.
func actionMain() {
	if len(os.Args) != 2 {
		fmt.Fprintln(os.Stderr, "usage: action WITH.yml")
		os.Exit(2)
	}
	status, err := runAction(os.Getenv("ACTION_DIR"), os.Args[1])
	if err != nil {
		fmt.Fprintln(os.Stderr, "action:", err)
		os.Exit(2)
	}
	os.Exit(status)
}

func runAction(dir, withFile string) (int, error) {
	var meta actionMeta
	if err := readYAML(filepath.Join(dir, "action.yml"), &meta); err != nil {
		return 0, err
	}
	if meta.Runs.Using != "composite" {
		return 0, fmt.Errorf("runs.using is %q, not composite", meta.Runs.Using)
	}
	with := map[string]string{}
	if err := readYAML(withFile, &with); err != nil {
		return 0, err
	}
	inputs := map[string]string{}
	for name, in := range meta.Inputs {
		if in.Default != nil {
			inputs[name] = *in.Default
		}
	}
	for name, value := range with {
		if _, ok := meta.Inputs[name]; !ok {
			return 0, fmt.Errorf("%s: action.yml has no input %q", withFile, name)
		}
		inputs[name] = value
	}
	ctx := map[string]string{
		"github.action_path":       dir,
		"github.action_ref":        os.Getenv("ACTION_REF"),
		"github.action_repository": os.Getenv("ACTION_REPOSITORY"),
	}
	for name, value := range inputs {
		ctx["inputs."+name] = value
	}
	for name := range meta.Inputs {
		if _, ok := inputs[name]; !ok {
			ctx["inputs."+name] = ""
		}
	}
	for _, step := range meta.Runs.Steps {
		if step.Shell != "bash" {
			return 0, fmt.Errorf("step %s: shell %q, not bash", step.ID, step.Shell)
		}
		status, outputs, err := runStep(dir, step.Run, step.Env, ctx)
		if err != nil {
			return 0, fmt.Errorf("step %s: %v", step.ID, err)
		}
		for name, value := range outputs {
			ctx["steps."+step.ID+".outputs."+name] = value
		}
		if status != 0 {
			return status, writeOutputs(meta, ctx)
		}
	}
	return 0, writeOutputs(meta, ctx)
}

// runStep runs one step and returns its exit status and outputs.
func runStep(dir, run string, env map[string]string, ctx map[string]string) (int, map[string]string, error) {
	temp, err := os.MkdirTemp(os.Getenv("RUNNER_TEMP"), "step")
	if err != nil {
		return 0, nil, err
	}
	defer os.RemoveAll(temp)
	body, err := expand(run, ctx)
	if err != nil {
		return 0, nil, err
	}
	script := filepath.Join(temp, "run.sh")
	outputFile := filepath.Join(temp, "output")
	if err := os.WriteFile(script, []byte(body), 0o644); err != nil {
		return 0, nil, err
	}
	if err := os.WriteFile(outputFile, nil, 0o644); err != nil {
		return 0, nil, err
	}
	cmd := exec.Command("bash", "--noprofile", "--norc", "-e", "-o", "pipefail", script)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(os.Environ(), "GITHUB_ACTION_PATH="+dir, "GITHUB_OUTPUT="+outputFile)
	for _, name := range slices.Sorted(maps.Keys(env)) {
		value, err := expand(env[name], ctx)
		if err != nil {
			return 0, nil, fmt.Errorf("env %s: %v", name, err)
		}
		cmd.Env = append(cmd.Env, name+"="+value)
	}
	status, err := runRelayingSignals(cmd)
	if err != nil {
		return 0, nil, err
	}
	outputs, err := readOutputs(outputFile)
	return status, outputs, err
}

// expression is a ${{ ... }} of the few kinds action.yml may use.
var expression = regexp.MustCompile(`\$\{\{\s*([^}]*?)\s*\}\}`)

// expand replaces each expression of s by its value in ctx; an expression
// ctx lacks is an error, so that the test fails when action.yml uses one
// this runner does not know.
func expand(s string, ctx map[string]string) (string, error) {
	var missing []string
	out := expression.ReplaceAllStringFunc(s, func(m string) string {
		key := expression.FindStringSubmatch(m)[1]
		value, ok := ctx[key]
		if !ok && !strings.HasPrefix(key, "steps.") {
			missing = append(missing, key)
		}
		return value
	})
	if missing != nil {
		return "", fmt.Errorf("unknown expressions %q", missing)
	}
	return out, nil
}

// readOutputs reads a GITHUB_OUTPUT file: NAME=VALUE lines, and
// NAME<<DELIMITER blocks.
func readOutputs(path string) (map[string]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	outputs := map[string]string{}
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		line := sc.Text()
		if name, delim, ok := strings.Cut(line, "<<"); ok && !strings.Contains(name, "=") {
			var value []string
			for sc.Scan() && sc.Text() != delim {
				value = append(value, sc.Text())
			}
			outputs[name] = strings.Join(value, "\n")
			continue
		}
		name, value, ok := strings.Cut(line, "=")
		if !ok {
			return nil, fmt.Errorf("GITHUB_OUTPUT: bad line %q", line)
		}
		outputs[name] = value
	}
	return outputs, sc.Err()
}

// writeOutputs writes the action's outputs to $ACTION_OUTPUTS.
func writeOutputs(meta actionMeta, ctx map[string]string) error {
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(meta.Outputs)) {
		value, err := expand(meta.Outputs[name].Value, ctx)
		if err != nil {
			return fmt.Errorf("output %s: %v", name, err)
		}
		fmt.Fprintf(&b, "%s=%s\n", name, value)
	}
	return os.WriteFile(os.Getenv("ACTION_OUTPUTS"), []byte(b.String()), 0o644)
}

func readYAML(path string, v any) error {
	data, err := os.ReadFile(path)
	if err != nil {
		return err
	}
	if err := yaml.Unmarshal(data, v); err != nil {
		return fmt.Errorf("%s: %v", path, err)
	}
	return nil
}

// runRelayingSignals runs cmd, passing on the SIGINT and SIGTERM the test
// command receives, as a runner passes a job's cancel to its step, and
// returns its exit status: its code, or 128+N when signal N ended it.
func runRelayingSignals(cmd *exec.Cmd) (int, error) {
	signals := make(chan os.Signal, 2)
	signal.Notify(signals, syscall.SIGINT, syscall.SIGTERM)
	defer signal.Stop(signals)
	if err := cmd.Start(); err != nil {
		return 0, err
	}
	go func() {
		for sig := range signals {
			_ = cmd.Process.Signal(sig)
		}
	}()
	var exit *exec.ExitError
	if err := cmd.Wait(); errors.As(err, &exit) {
		if ws, ok := exit.Sys().(syscall.WaitStatus); ok && ws.Signaled() {
			return 128 + int(ws.Signal()), nil
		}
		return exit.ExitCode(), nil
	} else if err != nil {
		return 0, err
	}
	return 0, nil
}
