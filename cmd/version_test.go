package cmd

import (
	"runtime/debug"
	"testing"
)

func TestVersionOf(t *testing.T) {
	installed := &debug.BuildInfo{Main: debug.Module{Path: "github.com/b0a38808/retry", Version: "v1.4.0"}}
	for _, tc := range []struct {
		name   string
		linked string
		info   *debug.BuildInfo
		want   string
	}{
		{"linked in by the release build", "1.5.0", installed, "1.5.0"},
		{"go install of a tagged version", "", installed, "v1.4.0"},
		{"build without module version", "", &debug.BuildInfo{}, "(devel)"},
		{"no build info", "", nil, "(devel)"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := versionOf(tc.linked, tc.info); got != tc.want {
				t.Errorf("versionOf(%q, %v) = %q; want %q", tc.linked, tc.info, got, tc.want)
			}
		})
	}
}
