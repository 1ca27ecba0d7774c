//go:build genlits

package classify

import "github.com/b0a38808/retry/runner/classify/literal"

// This file is built only for runner/classify/internal/genlits (-tags
// genlits), which writes presetLits from these two.

// TableExprs returns the expressions presetLits holds, sorted.
func TableExprs() []string {
	return tableExprs()
}

// Reduce returns the literals of expr, reduced at run time.
func Reduce(expr string) []literal.String {
	return reduce(expr)
}
