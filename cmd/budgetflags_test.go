package cmd

import (
	"path/filepath"
	"runtime"
	"testing"
)

func TestBudgetFlagsPolicy(t *testing.T) {
	o := budgetOptions{budget: "api", budgetRatio: "0.25", maxConcurrent: "4"}
	if err := o.check(func(string) string { return "" }); err != nil {
		t.Fatal(err)
	}
	if o.policy.Ratio != 0.25 || o.policy.Floor != 10 || o.maxSlots != 4 {
		t.Errorf("policy %+v, slots %d; want ratio 0.25, floor 10, 4 slots", o.policy, o.maxSlots)
	}
}

func TestDefaultStateDir(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("the Unix layout")
	}
	tests := []struct {
		env  map[string]string
		want string
	}{
		{map[string]string{"XDG_STATE_HOME": "/x/state", "HOME": "/home/u"}, "/x/state/retry"},
		{map[string]string{"XDG_STATE_HOME": "relative", "HOME": "/home/u"}, "/home/u/.local/state/retry"},
		{map[string]string{"HOME": "/home/u"}, "/home/u/.local/state/retry"},
	}
	for _, tt := range tests {
		got, err := defaultStateDir(func(k string) string { return tt.env[k] })
		if err != nil || got != filepath.FromSlash(tt.want) {
			t.Errorf("defaultStateDir(%v) = %q, %v; want %q", tt.env, got, err, tt.want)
		}
	}
}
