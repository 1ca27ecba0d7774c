package match

import (
	"slices"
	"strings"
	"testing"
)

func TestLiterals(t *testing.T) {
	lits := func(fold bool, ss ...string) []Literal {
		var ls []Literal
		for _, s := range ss {
			ls = append(ls, Literal{Text: s, Fold: fold})
		}
		return ls
	}
	for _, tt := range []struct {
		expr string
		want []Literal // nil: no literal, every line is matched
	}{
		{"connection refused", lits(false, "connection refused")},
		{"(?i)Timed Out", lits(true, "timed out")},
		{"(?i)timed? ?out", lits(true, "timed out", "timedout", "time out", "timeout")},
		{"a|b|c|d|e|f", nil}, // single letters: most lines hold one
		{"ERROR (408|429|503)", lits(false, "ERROR 408", "ERROR 429", "ERROR 503")},
		{"(?:alpha|beta|gamma|delta|epsilon|zeta|eta|theta)", lits(false, "alpha", "beta", "gamma", "delta", "epsilon", "zeta", "eta", "theta")},
		{"^error: (.*)$", lits(false, "error: ")},
		{"(?i)ok", lits(true, "o")},        // k may be the Kelvin sign
		{"(?i)host key", lits(true, "ho")}, // the first of the longest parts
		{"é", lits(false, "é")},
		{"x\\d+y", lits(false, "x0", "x1", "x2", "x3", "x4", "x5", "x6", "x7", "x8", "x9")},
		{"Connection (closed by|reset by) .* port", lits(false, "Connection closed by ", "Connection reset by ")},
		{"line\nbreak|other", lits(false, "other")},
		{".*", nil},
		{`\d+`, nil},
		{"^$", nil},
		{"(a", nil},
	} {
		if got := reduce(tt.expr); !slices.Equal(got, tt.want) {
			t.Errorf("reduce(%q) = %+v, want %+v", tt.expr, got, tt.want)
		}
	}
}

// TestTable: a Table's Pattern takes its strings from the table, with ids
// that equal strings share and the bytes chosen over them all; a Pattern
// of an expression the table does not hold reduces it.
func TestTable(t *testing.T) {
	const shared = "connection refused"
	tab := NewTable([]string{"(?i)timed out", shared, "dial: " + shared, shared})
	if len(tab.Exprs) != 3 {
		t.Fatalf("%d expressions, want 3 (sorted, each once): %+v", len(tab.Exprs), tab.Exprs)
	}
	if !slices.IsSortedFunc(tab.Exprs, func(a, b Reduced) int { return strings.Compare(a.Expr, b.Expr) }) {
		t.Errorf("expressions not sorted: %+v", tab.Exprs)
	}
	if tab.Strings != 3 {
		t.Errorf("%d different strings, want 3: %+v", tab.Strings, tab.Exprs)
	}
	ids := map[string]uint16{}
	for _, r := range tab.Exprs {
		if len(r.Lits) == 0 || len(r.IDs) != len(r.Lits) {
			t.Fatalf("%q: strings %+v, ids %v", r.Expr, r.Lits, r.IDs)
		}
		for j, l := range r.Lits {
			if l.At == 0 {
				t.Errorf("%q: no byte chosen for %q", r.Expr, l.Text)
			}
			if id, ok := ids[l.Text]; ok && id != r.IDs[j] {
				t.Errorf("%q has ids %d and %d", l.Text, id, r.IDs[j])
			}
			ids[l.Text] = r.IDs[j]
		}
	}
	for _, r := range tab.Exprs {
		p := tab.Known(r.Expr)
		if got := p.literals(); &got[0] != &r.Lits[0] || !slices.Equal(p.tableIDs(), r.IDs) {
			t.Errorf("the Pattern of %q did not take its strings from the table", r.Expr)
		}
	}

	const other = "(?i)quota exceeded for project [a-z]+"
	p := tab.Known(other)
	want := []Literal{{Text: "quota exceeded for project ", Fold: true}}
	if got := p.literals(); !slices.Equal(got, want) || p.tableIDs() != nil {
		t.Errorf("%q, not in the table: strings %+v, ids %v; want %+v, none", other, got, p.tableIDs(), want)
	}
	if got := (*Table)(nil).Known(shared).literals(); !slices.Equal(got, []Literal{{Text: shared}}) {
		t.Errorf("a nil Table's Pattern of %q holds %+v", shared, got)
	}
}
