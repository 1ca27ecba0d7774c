package cmd

import (
	"os"
	"testing"
)

// TestMain runs the tests outside any CI system, whatever the host's: a
// run reads the CI's variables from the environment, and its stderr would
// then carry the CI's header lines and annotations.
func TestMain(m *testing.M) {
	for _, name := range []string{
		"GITHUB_ACTIONS", "GITHUB_RUN_ATTEMPT", "GITHUB_STEP_SUMMARY",
		"GITLAB_CI", "TF_BUILD", "SYSTEM_JOBATTEMPT",
		"BUILDKITE", "BUILDKITE_RETRY_COUNT", "BUILDKITE_JOB_ID",
		"JENKINS_URL", "CIRCLECI",
	} {
		os.Unsetenv(name)
	}
	os.Exit(m.Run())
}
