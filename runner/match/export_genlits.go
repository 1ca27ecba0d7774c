//go:build genlits

package match

import "github.com/b0a38808/retry/runner/match/internal/literal"

// This file is built only for runner/match/internal/genlits (-tags
// genlits), which writes presetLits with it.

// Reduce returns the literals of expr, reduced at run time.
func Reduce(expr string) []literal.String {
	return reduce(expr)
}
