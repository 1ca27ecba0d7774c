package match

import (
	"slices"
	"testing"

	"github.com/b0a38808/retry/runner/match/internal/literal"
)

func TestLiterals(t *testing.T) {
	lits := func(fold bool, ss ...string) []literal.String {
		var ls []literal.String
		for _, s := range ss {
			ls = append(ls, literal.String{Text: s, Fold: fold})
		}
		return ls
	}
	for _, tt := range []struct {
		expr string
		want []literal.String // nil: no literal, every line is matched
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
		if got := literals(tt.expr); !slices.Equal(got, tt.want) {
			t.Errorf("literals(%q) = %+v, want %+v", tt.expr, got, tt.want)
		}
	}
}

// TestLiteralsOutsideTable: an expression of the user's, which no preset
// has, is reduced when it is asked for.
func TestLiteralsOutsideTable(t *testing.T) {
	const expr = "(?i)quota exceeded for project [a-z]+"
	if slices.ContainsFunc(presetLits, func(e exprLits) bool { return e.expr == expr }) {
		t.Fatalf("%q is a preset's: pick another", expr)
	}
	want := []literal.String{{Text: "quota exceeded for project ", Fold: true}}
	if got := literals(expr); !slices.Equal(got, want) {
		t.Errorf("literals(%q) = %+v, want %+v", expr, got, want)
	}
}
