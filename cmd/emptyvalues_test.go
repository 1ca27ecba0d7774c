//go:build unix

package cmd

import (
	"bytes"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/spf13/pflag"
)

func TestEmptyValuesRefused(t *testing.T) {
	var valued []string
	newRootCommand("test", nil, nil, nil, nil).Flags().VisitAll(func(f *pflag.Flag) {
		if f.NoOptDefVal == "" {
			valued = append(valued, f.Name)
		}
	})
	if len(valued) < 20 {
		t.Fatalf("found %d flags that take a value, want at least 20: %v", len(valued), valued)
	}
	tests := []struct {
		name string
		args []string
		flag string
	}{
		{name: "budget before max-concurrent", args: []string{"--budget", "", "--max-concurrent", "2"}, flag: "--budget"},
		{name: "joined with =", args: []string{"--deadline="}, flag: "--deadline"},
		{name: "a repeatable flag's second use", args: []string{"--retry-if", "x", "--retry-if", ""}, flag: "--retry-if"},
		{name: "empty seed", args: []string{"--seed", ""}, flag: "--seed"},
		{name: "empty max-hint", args: []string{"--max-hint", ""}, flag: "--max-hint"},
		{name: "short flag", args: []string{"-t", ""}, flag: "--timeout"},
	}
	for _, name := range valued {
		tests = append(tests, struct {
			name string
			args []string
			flag string
		}{name: name, args: []string{"--" + name, ""}, flag: "--" + name})
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ran := filepath.Join(t.TempDir(), "ran")
			var stdout, stderr bytes.Buffer
			args := append(append([]string{}, tt.args...), "--", "touch", ran)
			status := execute("test", args, &stdout, &stderr)
			want := "retry: " + tt.flag + ": must not be empty\n"
			if status.code != 125 || stderr.String() != want {
				t.Errorf("retry %q: exit %d, stderr %q; want exit 125, stderr %q", args, status.code, stderr.String(), want)
			}
			if _, err := os.Stat(ran); err == nil {
				t.Errorf("retry %q ran the command", args)
			}
			if stdout.Len() != 0 || strings.Count(stderr.String(), "\n") != 1 {
				t.Errorf("retry %q: stdout %q, stderr %q; want one line on stderr", args, stdout.String(), stderr.String())
			}
		})
	}
}
