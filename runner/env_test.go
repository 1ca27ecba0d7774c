package runner

import (
	"slices"
	"strings"
	"testing"
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
