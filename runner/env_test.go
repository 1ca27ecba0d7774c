package runner

import (
	"slices"
	"strings"
	"syscall"
	"testing"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/runner/classify"
)

func TestCMessages(t *testing.T) {
	for _, tc := range []struct {
		name string
		env  string
		want string
	}{
		{"LANG only", "PATH=/bin LANG=de_DE.UTF-8", "PATH=/bin LANG=de_DE.UTF-8 LC_MESSAGES=C"},
		{"LANGUAGE dropped", "LANG=de_DE.UTF-8 LANGUAGE=de:en", "LANG=de_DE.UTF-8 LC_MESSAGES=C"},
		{"LC_MESSAGES replaced", "LC_MESSAGES=fr_FR.UTF-8 LC_TIME=de_DE.UTF-8", "LC_TIME=de_DE.UTF-8 LC_MESSAGES=C"},
		{"LC_ALL moved to LANG", "LANG=fr_FR.UTF-8 LC_ALL=de_DE.UTF-8 LC_TIME=en_GB.UTF-8 HOME=/h", "HOME=/h LANG=de_DE.UTF-8 LC_MESSAGES=C"},
		{"LC_ALL=C stays", "LC_ALL=C LANG=de_DE.UTF-8", "LC_ALL=C LANG=de_DE.UTF-8 LC_MESSAGES=C"},
		{"LC_ALL=POSIX stays", "LC_ALL=POSIX", "LC_ALL=POSIX LC_MESSAGES=C"},
		{"empty LC_ALL is unset", "LC_ALL= LANG=de_DE.UTF-8", "LC_ALL= LANG=de_DE.UTF-8 LC_MESSAGES=C"},
		{"nothing set", "PATH=/bin", "PATH=/bin LC_MESSAGES=C"},
	} {
		got := cMessages(strings.Fields(tc.env))
		if want := strings.Fields(tc.want); !slices.Equal(got, want) {
			t.Errorf("%s: cMessages(%s) = %q, want %q", tc.name, tc.env, got, want)
		}
	}
}

func TestHookEnvironment(t *testing.T) {
	// An enclosing retry's hook variables are not inherited.
	base := []string{"PATH=/bin", "RETRY_EXIT_CODE=9", "RETRY_SIGNAL=SIGHUP", "RETRY_CLASS=permanent", "RETRY_SLOT=b@/st"}
	env := newEnvironment(base, 3, "k", t0, 1)
	for _, tc := range []struct {
		name       string
		a          Attempt
		want, gone []string
	}{
		{"exited", Attempt{Number: 2, Exit: exitcodes.Exit{ExitCode: 75}, Class: classify.Retryable},
			[]string{"RETRY_ATTEMPT=2", "RETRY_EXIT_CODE=75", "RETRY_CLASS=retryable", "RETRY_MAX_ATTEMPTS=3", "RETRY_IDEMPOTENCY_KEY=k", "RETRY_DEPTH=1", "PATH=/bin"},
			[]string{"RETRY_SIGNAL="}},
		{"killed", Attempt{Number: 1, Exit: exitcodes.Exit{ExitCode: -1, Signal: syscall.SIGKILL}, Class: classify.Ambiguous},
			[]string{"RETRY_ATTEMPT=1", "RETRY_SIGNAL=SIGKILL", "RETRY_CLASS=ambiguous"},
			[]string{"RETRY_EXIT_CODE="}},
		{"a signal without a name", Attempt{Number: 1, Exit: exitcodes.Exit{ExitCode: -1, Signal: syscall.Signal(200)}, Class: classify.Ambiguous},
			[]string{"RETRY_SIGNAL=SIG200"}, nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := env.forHook(&tc.a)
			for _, kv := range tc.want {
				if !slices.Contains(got, kv) {
					t.Errorf("environment %q lacks %q", got, kv)
				}
			}
			for _, prefix := range append(tc.gone, "RETRY_EXIT_CODE=9", "RETRY_SIGNAL=SIGHUP", "RETRY_CLASS=permanent", "RETRY_SLOT=") {
				if slices.ContainsFunc(got, func(kv string) bool { return strings.HasPrefix(kv, prefix) }) {
					t.Errorf("environment %q holds %q", got, prefix)
				}
			}
		})
	}
	// The attempts do not see them either.
	if got := env.forAttempt(1, ""); slices.ContainsFunc(got, func(s string) bool { return s == "RETRY_EXIT_CODE=9" || strings.HasPrefix(s, "RETRY_SLOT=") }) {
		t.Errorf("an attempt's environment %q holds an inherited RETRY_EXIT_CODE or RETRY_SLOT", got)
	}
	// An attempt's slots are its own to pass down.
	if got := env.forAttempt(1, "b@/st c@/st"); !slices.Contains(got, "RETRY_SLOT=b@/st c@/st") || slices.Contains(got, "RETRY_SLOT=b@/st") {
		t.Errorf("an attempt's environment %q lacks its RETRY_SLOT, or holds the inherited one", got)
	}
}
