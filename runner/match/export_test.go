package match

import (
	"slices"
	"testing"

	"github.com/b0a38808/retry/runner/match/internal/literal"
)

// What the external tests (package match_test), which import classify for
// its presets, reach inside the package for.
var (
	Literals       = literals
	Feed           = feed
	Show           = show
	Reference      = reference
	MustPatterns   = mustPatterns
	BenchOutput    = benchOutput
	RetryAfterHint = retryAfter
)

// Compiled reports whether p's regular expression has been compiled.
func (p *Pattern) Compiled() bool { return p.re != nil }

// Fresh returns a Pattern of p's compiled expression with nothing reduced.
func Fresh(p *Pattern) *Pattern { return &Pattern{expr: p.expr, re: p.re} }

// HintPattern returns the Pattern m finds hints with, nil for none.
func (m *Matcher) HintPattern() *Pattern {
	if m.hint == nil {
		return nil
	}
	return m.hint.pat
}

// SharedSearch returns the Search m compiles its search in.
func (m *Matcher) SharedSearch() *Search { return m.search }

// CheckTable fails t unless the table reduced at build time holds exprs,
// every preset expression, each with what reducing it now gives, and
// nothing else.
func CheckTable(t *testing.T, exprs []string) {
	const fix = "presets_lits.go is out of date: run go generate ./..."
	if len(presetLits) != len(exprs) {
		t.Errorf("%s (it holds %d expressions, the presets %d)", fix, len(presetLits), len(exprs))
	}
	ids := map[literal.String]uint16{} // each string's id, in order of first appearance
	var strs []literal.String          // by id
	for i, e := range exprs {
		if i >= len(presetLits) || presetLits[i].expr != e {
			t.Fatalf("%s: %q is not at %d", fix, e, i)
		}
		var want []uint16
		for _, l := range reduce(e) {
			if _, ok := ids[l]; !ok {
				ids[l] = uint16(len(strs))
				strs = append(strs, l)
			}
			want = append(want, ids[l])
		}
		if got := presetLits[i].ids; !slices.Equal(got, want) {
			t.Errorf("%s: %q has ids %v, want %v", fix, e, got, want)
		}
		got := slices.Clone(presetLits[i].lits)
		for j := range got {
			got[j].At = 0
		}
		if want := reduce(e); !slices.Equal(got, want) {
			t.Errorf("%s: %q holds %+v, reduces to %+v", fix, e, got, want)
		}
		if got := literals(e); len(got) > 0 && &got[0] != &presetLits[i].lits[0] {
			t.Errorf("literals(%q) did not come from the table", e)
		}
	}
	if tableStrings != len(strs) {
		t.Errorf("%s: tableStrings is %d, the table holds %d strings", fix, tableStrings, len(strs))
	}
	at := literal.FirstAnchors(strs)
	for _, e := range presetLits {
		for j, l := range e.lits {
			if j < len(e.ids) && int(e.ids[j]) < len(at) && l.At != at[e.ids[j]] {
				t.Errorf("%s: %q searches first by byte %d, FirstAnchors chooses %d", fix, l.Text, l.At, at[e.ids[j]])
			}
		}
	}
}
