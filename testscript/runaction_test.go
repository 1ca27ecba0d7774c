//go:build unix

package testscript_test

import (
	"fmt"
	"io/fs"
	"maps"
	"net"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/b0a38808/retry/testscript/internal/scriptcmd"
)

// TestRunAction runs the scripts of testdata/action/run, which use the
// JavaScript action at run/ as a workflow step would: the command
// `runaction WITH.yml` runs its pre, main and post stages with node, with
// the inputs WITH.yml gives, on a runner made of environment variables.
func TestRunAction(t *testing.T) {
	node, err := exec.LookPath("node")
	if err != nil {
		t.Skip("node is not on PATH: the action at run/ is a JavaScript action")
	}
	if _, err := exec.LookPath("bash"); err != nil {
		t.Skip("the action finds retry with bash, which is not on PATH")
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/action/run",
		RequireExplicitExec: true,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"githubapi":     githubAPI,
			"exitcode":      exitcode,
			"waitfile":      waitfile,
			"releaseserver": releaseServer,
			"pathwithout":   scriptcmd.PathWithout,
		},
		Setup: func(env *testscript.Env) error {
			isolate(env)
			work := env.WorkDir
			for name, value := range map[string]string{
				"ACTION_DIR":          root,
				"ACTION_NODE":         node,
				"ACTION_OUTPUTS":      filepath.Join(work, "outputs"),
				"ACTION_JOB":          filepath.Join(work, "job"),
				"ACTION_TOKEN":        "job-token",
				"GITHUB_ACTIONS":      "true",
				"GITHUB_WORKSPACE":    work,
				"GITHUB_REPOSITORY":   "octo/hello",
				"GITHUB_SHA":          "0123456789abcdef0123456789abcdef01234567",
				"GITHUB_EVENT_NAME":   "push",
				"GITHUB_EVENT_PATH":   filepath.Join(work, "event.json"),
				"GITHUB_API_URL":      "http://127.0.0.1:1",
				"GITHUB_STEP_SUMMARY": filepath.Join(work, "step-summary.md"),
				"RUNNER_OS":           "Linux",
				"RUNNER_ARCH":         "X64",
				"RUNNER_TEMP":         filepath.Join(work, "runner-temp"),
				"RUNNER_TOOL_CACHE":   filepath.Join(work, "tool-cache"),
				"XDG_STATE_HOME":      filepath.Join(work, "state"),
			} {
				env.Setenv(name, value)
			}
			event := `{"ref": "refs/heads/main", "head_commit": {"message": "a commit"}}`
			if err := os.WriteFile(filepath.Join(work, "event.json"), []byte(event), 0o644); err != nil {
				return err
			}
			return os.MkdirAll(filepath.Join(work, "runner-temp"), 0o755)
		},
	})
}

// jsActionMeta is the part of run/action.yml that a runner reads.
type jsActionMeta struct {
	Inputs map[string]struct {
		Default *string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using  string `yaml:"using"`
		Pre    string `yaml:"pre"`
		Main   string `yaml:"main"`
		Post   string `yaml:"post"`
		PostIf string `yaml:"post-if"`
	} `yaml:"runs"`
}

// runActionMain is the command
//
//	runaction [-nopre] WITH.yml [LATER...]
//
// which runs the JavaScript action in $ACTION_DIR/run as GitHub's runner
// does: its pre (not with -nopre: the runner runs none for an action of the
// workspace), its main, the command LATER as a later step of the job when
// there is one, and its post, each with `$ACTION_NODE FILE`. Its inputs
// come from WITH.yml and its defaults (${{ github.token }} is
// $ACTION_TOKEN); an input it does not declare is passed on with a
// warning, as the runner does. The stages share GITHUB_STATE as STATE_*
// variables; the job's GITHUB_ENV and GITHUB_PATH are $ACTION_JOB/env and
// $ACTION_JOB/path, made empty first. The main stage's outputs go to
// $ACTION_OUTPUTS, a NAME=VALUE line each. It exits with the status of the
// stage that failed, main's first.
func runActionMain() {
	args := os.Args[1:]
	pre := true
	if len(args) > 0 && args[0] == "-nopre" {
		pre, args = false, args[1:]
	}
	if len(args) < 1 {
		fmt.Fprintln(os.Stderr, "usage: runaction [-nopre] WITH.yml [LATER...]")
		os.Exit(2)
	}
	status, err := runJSAction(filepath.Join(os.Getenv("ACTION_DIR"), "run"), args[0], pre, args[1:])
	if err != nil {
		fmt.Fprintln(os.Stderr, "runaction:", err)
		os.Exit(2)
	}
	os.Exit(status)
}

func runJSAction(dir, withFile string, pre bool, later []string) (int, error) {
	var meta jsActionMeta
	if err := readYAML(filepath.Join(dir, "action.yml"), &meta); err != nil {
		return 0, err
	}
	if meta.Runs.Using != "node24" && meta.Runs.Using != "node20" {
		return 0, fmt.Errorf("runs.using is %q, not node24 or node20", meta.Runs.Using)
	}
	with := map[string]string{}
	if err := readYAML(withFile, &with); err != nil {
		return 0, err
	}
	inputs := map[string]string{}
	for name, in := range meta.Inputs {
		if in.Default == nil {
			continue
		}
		value, err := expand(*in.Default, map[string]string{"github.token": os.Getenv("ACTION_TOKEN")})
		if err != nil {
			return 0, fmt.Errorf("input %s: %v", name, err)
		}
		inputs[name] = value
	}
	for _, name := range slices.Sorted(maps.Keys(with)) {
		if _, ok := meta.Inputs[name]; !ok {
			fmt.Fprintf(os.Stderr, "runaction: warning: unexpected input %s\n", name)
		}
		inputs[name] = with[name]
	}
	var env []string
	for _, kv := range os.Environ() {
		if !strings.HasPrefix(kv, "INPUT_") && !strings.HasPrefix(kv, "STATE_") {
			env = append(env, kv)
		}
	}
	for _, name := range slices.Sorted(maps.Keys(inputs)) {
		env = append(env, "INPUT_"+strings.ToUpper(strings.ReplaceAll(name, " ", "_"))+"="+inputs[name])
	}
	job := os.Getenv("ACTION_JOB")
	if err := os.MkdirAll(job, 0o755); err != nil {
		return 0, err
	}
	for _, f := range []string{"env", "path"} {
		if err := os.WriteFile(filepath.Join(job, f), nil, 0o644); err != nil {
			return 0, err
		}
	}
	env = append(env, "GITHUB_ENV="+filepath.Join(job, "env"), "GITHUB_PATH="+filepath.Join(job, "path"))
	state := map[string]string{}
	stage := func(script string) (int, map[string]string, error) {
		stageEnv := slices.Clone(env)
		for _, name := range slices.Sorted(maps.Keys(state)) {
			stageEnv = append(stageEnv, "STATE_"+name+"="+state[name])
		}
		status, outputs, stateOut, err := runNodeStage(filepath.Join(dir, script), stageEnv)
		maps.Copy(state, stateOut)
		return status, outputs, err
	}
	if pre && meta.Runs.Pre != "" {
		status, _, err := stage(meta.Runs.Pre)
		if err != nil || status != 0 {
			return status, err
		}
	}
	status, outputs, err := stage(meta.Runs.Main)
	if err != nil {
		return 0, err
	}
	var b strings.Builder
	for _, name := range slices.Sorted(maps.Keys(outputs)) {
		fmt.Fprintf(&b, "%s=%s\n", name, outputs[name])
	}
	if err := os.WriteFile(os.Getenv("ACTION_OUTPUTS"), []byte(b.String()), 0o644); err != nil {
		return 0, err
	}
	if len(later) > 0 {
		cmd := exec.Command(later[0], later[1:]...)
		cmd.Stdout, cmd.Stderr = os.Stdout, os.Stderr
		if err := cmd.Run(); err != nil {
			return 0, fmt.Errorf("the later step: %v", err)
		}
	}
	if meta.Runs.Post != "" && (meta.Runs.PostIf == "always()" || status == 0) {
		postStatus, _, err := stage(meta.Runs.Post)
		if err != nil {
			return 0, err
		}
		if status == 0 {
			status = postStatus
		}
	}
	return status, nil
}

// runNodeStage runs one stage, FILE, with node and returns its exit status,
// outputs and state.
func runNodeStage(file string, env []string) (int, map[string]string, map[string]string, error) {
	temp, err := os.MkdirTemp(os.Getenv("RUNNER_TEMP"), "stage")
	if err != nil {
		return 0, nil, nil, err
	}
	defer os.RemoveAll(temp)
	outputFile := filepath.Join(temp, "output")
	stateFile := filepath.Join(temp, "state")
	for _, f := range []string{outputFile, stateFile} {
		if err := os.WriteFile(f, nil, 0o644); err != nil {
			return 0, nil, nil, err
		}
	}
	cmd := exec.Command(os.Getenv("ACTION_NODE"), file)
	cmd.Dir = os.Getenv("GITHUB_WORKSPACE")
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, os.Stdout, os.Stderr
	cmd.Env = append(env, "GITHUB_OUTPUT="+outputFile, "GITHUB_STATE="+stateFile)
	status, err := runRelayingSignals(cmd)
	if err != nil {
		return 0, nil, nil, err
	}
	outputs, err := readOutputs(outputFile)
	if err != nil {
		return 0, nil, nil, err
	}
	state, err := readOutputs(stateFile)
	return status, outputs, state, err
}

// githubAPI is the command
//
//	githubapi TOKEN OWNER/REPO REF DIR
//
// which serves, on a loopback port, GitHub's API for the tarball of one
// ref: /repos/OWNER/REPO/tarball/REF answers, as GitHub does, with a
// redirect to the archive, which holds DIR's files under one directory. It
// answers 401 to a request whose token is not TOKEN, and 404 for another
// ref. It sets GITHUB_API_URL and logs each request to $WORK/api-requests.
func githubAPI(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 4 {
		ts.Fatalf("usage: githubapi TOKEN OWNER/REPO REF DIR")
	}
	token, repo, ref, dir := args[0], args[1], args[2], ts.MkAbs(args[3])
	files := map[string][]byte{}
	top := strings.ReplaceAll(repo, "/", "-") + "-0123456/"
	ts.Check(filepath.WalkDir(dir, func(path string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		body, err := os.ReadFile(path)
		if err != nil {
			return err
		}
		rel, err := filepath.Rel(dir, path)
		files[top+rel] = body
		return err
	}))
	archive := tarGz(ts, files)
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	log := ts.MkAbs("api-requests")
	srv := &http.Server{Handler: http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		appendLine(log, r.Method+" "+r.URL.Path+" "+r.Header.Get("Authorization"))
		if r.URL.Path == "/codeload/"+repo+"/legacy.tar.gz/"+ref {
			_, _ = w.Write(archive)
			return
		}
		if r.Header.Get("Authorization") != "Bearer "+token {
			w.WriteHeader(http.StatusUnauthorized)
			_, _ = w.Write([]byte(`{"message": "Bad credentials"}`))
			return
		}
		if r.URL.Path != "/repos/"+repo+"/tarball/"+ref {
			w.WriteHeader(http.StatusNotFound)
			_, _ = w.Write([]byte(`{"message": "Not Found"}`))
			return
		}
		http.Redirect(w, r, "/codeload/"+repo+"/legacy.tar.gz/"+ref, http.StatusFound)
	})}
	go srv.Serve(ln)
	ts.Defer(func() { srv.Close() })
	ts.Setenv("GITHUB_API_URL", "http://"+ln.Addr().String())
}
