package match

import (
	"fmt"
	"slices"
	"strings"

	"github.com/b0a38808/retry/runner/match/internal/literal"
)

// Literal is a string one of which every match of an expression holds:
// the search looks for it, and runs the expression on the lines where it
// finds it.
type Literal struct {
	Text string
	// Fold makes ASCII letters match in either case; other bytes match
	// exactly.
	Fold bool
	// At, when not zero, is the offset in Text, plus one, of the byte the
	// first searches look for the string by. Zero lets the search take the
	// string's rarest byte.
	At int
}

// Reduced is an expression with the literal strings it reduces to.
type Reduced struct {
	Expr string
	// Lits are the strings one of which every match holds, nil when the
	// expression reduces to none (then every line is a candidate).
	Lits []Literal
	// IDs are the ids of Lits in their Table: equal strings have one id.
	IDs []uint16
}

// Table holds expressions reduced to their literal strings ahead of time,
// so that a Pattern of one of them (Table.Known) skips the reduction and
// the first search starts on bytes chosen over them all. A program builds
// it with NewTable when it is generated (go generate) and holds it as a
// composite literal, which costs nothing at start-up. A Table must not be
// changed once a Pattern made from it is in use.
type Table struct {
	// Exprs are the expressions, sorted by Expr, each once.
	Exprs []Reduced
	// Strings is how many different strings Exprs hold: every id is
	// below it.
	Strings int
}

// NewTable reduces exprs together: each different string gets an id, in
// order of first appearance, and the byte the first searches look for it
// by, chosen over all the strings of the table.
func NewTable(exprs []string) Table {
	exprs = slices.Compact(slices.Sorted(slices.Values(exprs)))
	t := Table{Exprs: make([]Reduced, len(exprs))}
	ids := map[Literal]uint16{}
	var strs []literal.String // by id
	for i, e := range exprs {
		r := Reduced{Expr: e, Lits: reduce(e)}
		for _, l := range r.Lits {
			id, ok := ids[l]
			if !ok {
				if len(strs) > 0xffff {
					panic(fmt.Sprintf("match: NewTable: more than %d strings", 0xffff+1))
				}
				id = uint16(len(strs))
				ids[l] = id
				strs = append(strs, literal.String(l))
			}
			r.IDs = append(r.IDs, id)
		}
		t.Exprs[i] = r
	}
	at := literal.FirstAnchors(strs)
	for _, r := range t.Exprs {
		for j := range r.Lits {
			r.Lits[j].At = at[r.IDs[j]]
		}
	}
	t.Strings = len(strs)
	return t
}

// Known returns the Pattern of expr, a constant expression known to be
// valid, as Known does; when t holds expr, the Pattern's literal strings
// are t's. A nil Table holds nothing.
func (t *Table) Known(expr string) *Pattern {
	return &Pattern{expr: expr, table: t}
}

// lookup returns the literal strings of expr and their ids in t, or
// reduces expr when t does not hold it (then ids is nil).
func (t *Table) lookup(expr string) ([]Literal, []uint16) {
	if t != nil {
		if i, ok := slices.BinarySearchFunc(t.Exprs, expr, func(r Reduced, expr string) int {
			return strings.Compare(r.Expr, expr)
		}); ok {
			return t.Exprs[i].Lits, t.Exprs[i].IDs
		}
	}
	return reduce(expr), nil
}
