package ci

import (
	"context"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
	"time"
)

func env(kv ...string) func(string) string {
	m := map[string]string{}
	for i := 0; i+1 < len(kv); i += 2 {
		m[kv[i]] = kv[i+1]
	}
	return func(k string) string { return m[k] }
}

func name(s System) string {
	if s == nil {
		return "none"
	}
	return s.Name()
}

// Each system is detected from its own variable, compared as that CI
// sets it.
func TestDetect(t *testing.T) {
	for i, tt := range []struct {
		env  func(string) string
		want string
	}{
		{env(), "none"},
		{env("GITHUB_ACTIONS", "true"), "github"},
		{env("GITHUB_ACTIONS", "1"), "none"},
		{env("GITLAB_CI", "true"), "gitlab"},
		{env("TF_BUILD", "True"), "azure"},
		{env("TF_BUILD", "true"), "none"}, // Azure sets "True"
		{env("BUILDKITE", "true"), "buildkite"},
		{env("JENKINS_URL", "https://ci.example.com/"), "jenkins"},
		{env("CIRCLECI", "true"), "circleci"},
		{env("CI", "true"), "none"},
		{env("GITHUB_ACTIONS", "true", "GITLAB_CI", "true"), "github"},
	} {
		if got := name(Detect(tt.env)); got != tt.want {
			t.Errorf("Detect(case %d) = %s, want %s", i, got, tt.want)
		}
	}
}

// Detection reads a few variables and nothing else.
func TestDetectReadsFewVariables(t *testing.T) {
	var read []string
	Detect(func(k string) string { read = append(read, k); return "" })
	if len(read) > 6 {
		t.Errorf("Detect read %d variables: %v", len(read), read)
	}
}

func TestNamed(t *testing.T) {
	for _, n := range Names() {
		s, ok := Named(n, env("GITLAB_CI", "true"))
		switch {
		case !ok:
			t.Errorf("Named(%q) is not ok", n)
		case n == "auto" && name(s) != "gitlab", n == "none" && s != nil:
			t.Errorf("Named(%q) = %s", n, name(s))
		case n != "auto" && n != "none" && name(s) != n:
			t.Errorf("Named(%q) = %s", n, name(s))
		}
	}
	if _, ok := Named("travis", env()); ok {
		t.Error("Named(travis) is ok")
	}
}

func TestJobAttempt(t *testing.T) {
	for _, tt := range []struct {
		s    System
		env  func(string) string
		want int
	}{
		{GitHub{}, env("GITHUB_RUN_ATTEMPT", "2"), 2},
		{GitHub{}, env(), 0},
		{GitHub{}, env("GITHUB_RUN_ATTEMPT", "x"), 0},
		{Buildkite{}, env("BUILDKITE_RETRY_COUNT", "0"), 1},
		{Buildkite{}, env("BUILDKITE_RETRY_COUNT", "2"), 3},
		{Buildkite{}, env(), 0},
		{Azure{}, env("SYSTEM_JOBATTEMPT", "3"), 3},
		{GitLab{}, env("CI_JOB_ID", "7"), 0},
		{Jenkins{}, env("BUILD_NUMBER", "7"), 0},
		{CircleCI{}, env("CIRCLE_BUILD_NUM", "7"), 0},
	} {
		if got := tt.s.JobAttempt(tt.env); got != tt.want {
			t.Errorf("%s.JobAttempt = %d, want %d", tt.s.Name(), got, tt.want)
		}
	}
}

func TestFolds(t *testing.T) {
	for _, tt := range []struct {
		s    System
		g    Groups
		want bool
	}{
		{GitLab{}, GroupsAuto, true},
		{Buildkite{}, GroupsAuto, true},
		{GitHub{}, GroupsAuto, false},
		{Azure{}, GroupsAuto, false},
		{GitHub{}, GroupsAlways, true},
		{Azure{}, GroupsAlways, true},
		{GitLab{}, GroupsNone, false},
		{Jenkins{}, GroupsAlways, false},
		{CircleCI{}, GroupsAlways, false},
	} {
		if got := Folds(tt.s, tt.g); got != tt.want {
			t.Errorf("Folds(%s, %s) = %v, want %v", tt.s.Name(), tt.g, got, tt.want)
		}
	}
}

// The exact bytes of each system's marks, as its documentation gives
// them (the pages are cited beside the code that writes them).
func TestMarkers(t *testing.T) {
	at := time.Unix(1700000000, 0)
	f := Fold{ID: "retry-sh-42-attempt-2", Header: Header("sh", false, "2/3", "sh -c 'exit 1'"), At: at}
	for _, tt := range []struct {
		s                  System
		begin, end, failed string
		summary            string
	}{
		{GitHub{}, "::group::retry sh: attempt 2/3: sh -c 'exit 1'\n", "\n::endgroup::\n", "\n::endgroup::\n", ""},
		{GitLab{},
			"\x1b[0Ksection_start:1700000000:retry-sh-42-attempt-2[collapsed=false]\r\x1b[0Kretry sh: attempt 2/3: sh -c 'exit 1'\n",
			"\n\x1b[0Ksection_end:1700000000:retry-sh-42-attempt-2\r\x1b[0K\n",
			"\n\x1b[0Ksection_end:1700000000:retry-sh-42-attempt-2\r\x1b[0K\n", ""},
		{Azure{}, "##[group]retry sh: attempt 2/3: sh -c 'exit 1'\n", "\n##[endgroup]\n", "\n##[endgroup]\n", ""},
		{Buildkite{}, "--- retry sh: attempt 2/3: sh -c 'exit 1'\n", "", "\n^^^ +++\n", "\n+++ retry sh: summary\n"},
		{Jenkins{}, "retry sh: attempt 2/3: sh -c 'exit 1'\n", "", "", ""},
		{CircleCI{}, "retry sh: attempt 2/3: sh -c 'exit 1'\n", "", "", ""},
	} {
		var b strings.Builder
		tt.s.BeginFold(&b, f)
		if b.String() != tt.begin {
			t.Errorf("%s.BeginFold = %q, want %q", tt.s.Name(), b.String(), tt.begin)
		}
		b.Reset()
		tt.s.EndFold(&b, f, false)
		if b.String() != tt.end {
			t.Errorf("%s.EndFold = %q, want %q", tt.s.Name(), b.String(), tt.end)
		}
		b.Reset()
		tt.s.EndFold(&b, f, true)
		if b.String() != tt.failed {
			t.Errorf("%s.EndFold(failed) = %q, want %q", tt.s.Name(), b.String(), tt.failed)
		}
		b.Reset()
		tt.s.BeginSummary(&b, "retry sh: summary")
		if b.String() != tt.summary {
			t.Errorf("%s.BeginSummary = %q, want %q", tt.s.Name(), b.String(), tt.summary)
		}
	}
}

func TestHeader(t *testing.T) {
	if got, want := Header("n", true, "2/50", "a\nb"), "retry n: run 2/50: a b"; got != want {
		t.Errorf("Header = %q, want %q", got, want)
	}
}

func TestWarnings(t *testing.T) {
	for _, tt := range []struct {
		s    System
		want string
	}{
		{GitHub{}, "::warning title=retry deploy::attempt 1/3 failed: 100%25 exit 1%0D%0Anext\n"},
		{Azure{}, "##vso[task.logissue type=warning]retry deploy: attempt 1/3 failed: 100%AZP25 exit 1%0D%0Anext\n"},
	} {
		var b strings.Builder
		if err := tt.s.Annotator(&b, env()).Warn(context.Background(), "deploy", "attempt 1/3 failed: 100% exit 1\r\nnext"); err != nil {
			t.Fatal(err)
		}
		if b.String() != tt.want {
			t.Errorf("%s warning = %q, want %q", tt.s.Name(), b.String(), tt.want)
		}
	}
	for _, s := range []System{GitLab{}, Jenkins{}, CircleCI{}} {
		if s.Annotator(nil, env()) != nil {
			t.Errorf("%s has annotations", s.Name())
		}
	}
}

// The Buildkite annotation is made by the agent found on PATH: one per
// operation, made again with every line so far.
func TestBuildkiteAnnotation(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the fake agent is a shell script")
	}
	dir := t.TempDir()
	log := filepath.Join(dir, "log")
	script := "#!/bin/sh\necho \"$@\" >>" + log + "\ncat >>" + log + "\n"
	if err := os.WriteFile(filepath.Join(dir, "buildkite-agent"), []byte(script), 0o755); err != nil {
		t.Fatal(err)
	}
	t.Setenv("PATH", dir+string(os.PathListSeparator)+"/usr/bin:/bin")
	a := Buildkite{}.Annotator(nil, env("BUILDKITE_JOB_ID", "j1"))
	for _, text := range []string{"attempt 1/3 failed", "passed on attempt 2 of 3 (flaky)"} {
		if err := a.Warn(context.Background(), "deploy", text); err != nil {
			t.Fatal(err)
		}
	}
	got, err := os.ReadFile(log)
	if err != nil {
		t.Fatal(err)
	}
	want := "annotate --style warning --context retry-deploy-j1\n**retry deploy**\n\n- attempt 1/3 failed\n" +
		"annotate --style warning --context retry-deploy-j1\n**retry deploy**\n\n- attempt 1/3 failed\n- passed on attempt 2 of 3 (flaky)\n"
	if string(got) != want {
		t.Errorf("agent calls:\n%s\nwant:\n%s", got, want)
	}

	// A failing agent is an error for a warning; one that hangs is cut.
	if err := os.WriteFile(filepath.Join(dir, "buildkite-agent"), []byte("#!/bin/sh\necho 'fatal: no token' >&2\nexit 1\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := a.Warn(context.Background(), "deploy", "x"); err == nil || !strings.Contains(err.Error(), "no token") {
		t.Errorf("failing agent: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 50*time.Millisecond)
	defer cancel()
	if err := os.WriteFile(filepath.Join(dir, "buildkite-agent"), []byte("#!/bin/sh\nexec sleep 10\n"), 0o755); err != nil {
		t.Fatal(err)
	}
	start := time.Now()
	if err := a.Warn(ctx, "deploy", "x"); err == nil {
		t.Error("hanging agent: no error")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("hanging agent took %s", d)
	}

	// Without the agent on PATH, no annotation and no error.
	t.Setenv("PATH", t.TempDir())
	if err := (Buildkite{}).Annotator(nil, env()).Warn(context.Background(), "deploy", "x"); err != nil {
		t.Errorf("no agent: %v", err)
	}
}

// retry explain's lines follow what the system has: folds open or shut,
// annotations or none, a job attempt or none.
func TestDescribe(t *testing.T) {
	for _, tt := range []struct {
		s          System
		folds      bool
		annotate   bool
		jobAttempt int
		want       []string
	}{
		{GitLab{}, true, false, 0, []string{
			"each attempt's output is a fold of the log (collapsible sections, left open), begun by its header line",
			"GitLab CI does not tell its own attempt of the job"}},
		{GitHub{}, false, true, 2, []string{
			"each attempt begins with a header line on stderr (--ci-groups always makes each a fold of the log: ::group:: groups, shown shut)",
			"each retried attempt, and a flaky pass, is a warning annotation (::warning workflow commands), at most 10 a run (--ci-annotations none makes none)",
			"this is GitHub Actions's attempt 2 of the job (GITHUB_RUN_ATTEMPT), which the report and the summary record"}},
		{Azure{}, false, false, 0, []string{
			"each attempt begins with a header line on stderr (--ci-groups always makes each a fold of the log: ##[group] groups, shown shut)",
			"no annotations (--ci-annotations none)",
			"Azure Pipelines says nothing of its attempt of the job (SYSTEM_JOBATTEMPT is not set)"}},
		{CircleCI{}, false, false, 0, []string{
			"each attempt begins with a header line on stderr",
			"CircleCI does not tell its own attempt of the job"}},
	} {
		got := Describe(tt.s, tt.folds, tt.annotate, tt.jobAttempt)
		if strings.Join(got, "\n") != strings.Join(tt.want, "\n") {
			t.Errorf("Describe(%s):\n%s\nwant:\n%s", tt.s.Name(), strings.Join(got, "\n"), strings.Join(tt.want, "\n"))
		}
	}
}
