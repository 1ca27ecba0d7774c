package match

// What the external tests (package match_test), which import classify for
// its presets, reach inside the package for.
var (
	Reduce         = reduce
	Feed           = feed
	Show           = show
	Reference      = reference
	MustPatterns   = mustPatterns
	BenchOutput    = benchOutput
	RetryAfterHint = retryAfter
)

// Compiled reports whether p's regular expression has been compiled.
func (p *Pattern) Compiled() bool { return p.re != nil }

// Fresh returns a Pattern of p's compiled expression, of p's Table, with
// nothing reduced or looked up.
func Fresh(p *Pattern) *Pattern { return &Pattern{expr: p.expr, re: p.re, table: p.table} }

// HintPattern returns the Pattern m finds hints with, nil for none.
func (m *Matcher) HintPattern() *Pattern {
	if m.hint == nil {
		return nil
	}
	return m.hint.pat
}
