package cmd

import (
	"slices"
	"testing"

	"github.com/spf13/pflag"
)

// TestRepeatableAsStringArray holds repeatable to what pflag's string
// array does with the same uses of the flag.
func TestRepeatableAsStringArray(t *testing.T) {
	for _, uses := range [][]string{nil, {"a"}, {"a", "b,c"}, {`say "hi"`, "", "x y"}} {
		var got, want []string
		ours := pflag.NewFlagSet("ours", pflag.ContinueOnError)
		repeatableVar(ours, &got, "f", "")
		theirs := pflag.NewFlagSet("theirs", pflag.ContinueOnError)
		theirs.StringArrayVar(&want, "f", nil, "")
		var args []string
		for _, u := range uses {
			args = append(args, "--f="+u)
		}
		if err := ours.Parse(args); err != nil {
			t.Fatal(err)
		}
		if err := theirs.Parse(args); err != nil {
			t.Fatal(err)
		}
		o, th := ours.Lookup("f"), theirs.Lookup("f")
		if !slices.Equal(got, want) || o.Value.String() != th.Value.String() || o.Value.Type() != th.Value.Type() {
			t.Errorf("uses %q: ours %q %s (%s), pflag's %q %s (%s)", uses, got, o.Value, o.Value.Type(), want, th.Value, th.Value.Type())
		}
		if ou, tu := ours.FlagUsages(), theirs.FlagUsages(); ou != tu {
			t.Errorf("uses %q: help %q, pflag's %q", uses, ou, tu)
		}
		if s := o.Value.(pflag.SliceValue).GetSlice(); !slices.Equal(s, want) && len(s)+len(want) > 0 {
			t.Errorf("uses %q: GetSlice %q, want %q", uses, s, want)
		}
	}
}
