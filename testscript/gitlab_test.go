//go:build unix

package testscript_test

import (
	"net"
	"net/http"
	"os/exec"
	"path/filepath"
	"testing"

	"github.com/rogpeppe/go-internal/testscript"
)

// TestGitLabTemplate runs the scripts of testdata/gitlab: pipelines that
// include templates/retry.yml, run for real by gitlab-ci-local on its
// shell executor, with the template and a release of retry served on
// loopback.
func TestGitLabTemplate(t *testing.T) {
	if testing.Short() {
		t.Skip("-short: gitlab-ci-local runs whole pipelines")
	}
	for _, tool := range []string{"gitlab-ci-local", "git", "bash"} {
		if _, err := exec.LookPath(tool); err != nil {
			t.Skipf("%s is not on PATH: .ci/run installs it", tool)
		}
	}
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	testscript.Run(t, testscript.Params{
		Dir:                 "testdata/gitlab",
		RequireExplicitExec: true,
		Cmds: map[string]func(*testscript.TestScript, bool, []string){
			"releaseserver":  releaseServer,
			"templateserver": templateServer(filepath.Join(root, "templates")),
		},
		Setup: func(env *testscript.Env) error {
			isolate(env)
			// gitlab-ci-local reads its settings from $HOME, and git
			// commits need a name.
			env.Setenv("HOME", filepath.Join(env.WorkDir, "home"))
			for _, name := range []string{"GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"} {
				env.Setenv(name, "retry tests")
			}
			for _, name := range []string{"GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"} {
				env.Setenv(name, "tests@retry.invalid")
			}
			return nil
		},
	})
}

// templateServer returns the command
//
//	templateserver
//
// which serves dir, the repository's templates, on a loopback port, as a
// raw file host would for include: remote:, and sets TEMPLATES to its base
// URL.
func templateServer(dir string) func(*testscript.TestScript, bool, []string) {
	return func(ts *testscript.TestScript, neg bool, args []string) {
		if neg || len(args) != 0 {
			ts.Fatalf("usage: templateserver")
		}
		ln, err := net.Listen("tcp", "127.0.0.1:0")
		ts.Check(err)
		srv := &http.Server{Handler: http.FileServer(http.Dir(dir))}
		go srv.Serve(ln)
		ts.Defer(func() { srv.Close() })
		ts.Setenv("TEMPLATES", "http://"+ln.Addr().String())
	}
}
