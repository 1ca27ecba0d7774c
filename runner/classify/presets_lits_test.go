package classify

import (
	"reflect"
	"testing"

	"github.com/b0a38808/retry/runner/match"
)

// TestPresetTableCurrent: the table reduced at build time holds every
// expression of the presets and the Retry-After hint, each with what
// match.NewTable gives for it now, and nothing else.
func TestPresetTableCurrent(t *testing.T) {
	const fix = "presets_lits.go is out of date: run go generate ./..."
	want := match.NewTable(Expressions())
	if len(presetTable.Exprs) != len(want.Exprs) {
		t.Errorf("%s (it holds %d expressions, the presets %d)", fix, len(presetTable.Exprs), len(want.Exprs))
	}
	for i, w := range want.Exprs {
		if i >= len(presetTable.Exprs) {
			break
		}
		if got := presetTable.Exprs[i]; !reflect.DeepEqual(got, w) {
			t.Fatalf("%s: at %d it holds %+v, want %+v", fix, i, got, w)
		}
	}
	if presetTable.Strings != want.Strings {
		t.Errorf("%s: it counts %d strings, want %d", fix, presetTable.Strings, want.Strings)
	}
}

// TestPresetsReduceToLiterals walks every expression of the presets and
// the hint, whatever presets there are: one that reduced to no literal
// would be matched against every line with its regular expression, the
// slow path that presets must not take.
func TestPresetsReduceToLiterals(t *testing.T) {
	if len(presetTable.Exprs) == 0 {
		t.Fatal("the table holds no expression")
	}
	for _, r := range presetTable.Exprs {
		if r.Lits == nil {
			t.Errorf("%q reduces to no literal: every line would go to the regular expression", r.Expr)
		}
	}
}
