package match

import (
	"regexp/syntax"
	"slices"
	"strings"
	"unicode"
	"unicode/utf8"

	"github.com/b0a38808/retry/runner/match/internal/literal"
)

// The matcher's prefilter: every expression is reduced to a set of literal
// strings one of which each of its matches contains, and all the sets of a
// Matcher are searched together (literal.Scanner); the regular expression
// runs only on the lines that hold one of its strings.

// Bounds on the expansion of an expression into literals: a character
// class of more than maxClass characters, or a run of a concatenation that
// would expand to more than maxCross strings, ends the literal there. The
// alternatives of an alternation are never capped.
const (
	maxClass = 32
	maxCross = 256
)

// reduce returns the strings one of which every match of expr holds, nil
// when expr reduces to none (then every line is matched).
func reduce(expr string) []Literal {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	set, ok := extract(re)
	if !ok {
		return nil
	}
	ls := slices.DeleteFunc(slices.Clone(set.lits), func(l Literal) bool {
		return strings.Contains(l.Text, "\n") // never inside a line
	})
	if !usable(ls) {
		return nil
	}
	return ls
}

// litSet is what one node of an expression says about its matches: each
// contains one of lits, and when exact each is one of them; each starts
// with one of pre, unless pre is nil.
type litSet struct {
	lits  []Literal
	exact bool
	pre   []Literal
}

// exactSet is the set of a node whose matches are the strings ls.
func exactSet(ls ...Literal) litSet {
	return litSet{lits: ls, exact: true, pre: ls}
}

// empty is the set of a node that matches only the empty string.
var empty = exactSet(Literal{})

// extract returns the literal set of re; ok is false when re's matches need
// contain no literal at all.
func extract(re *syntax.Regexp) (set litSet, ok bool) {
	switch re.Op {
	case syntax.OpLiteral:
		return literalNode(re.Rune, re.Flags&syntax.FoldCase != 0)
	case syntax.OpCharClass:
		n := 0
		for i := 0; i < len(re.Rune); i += 2 {
			n += int(re.Rune[i+1]-re.Rune[i]) + 1
		}
		if n == 0 || n > maxClass {
			return litSet{}, false
		}
		var ls []Literal
		for i := 0; i < len(re.Rune); i += 2 {
			for r := re.Rune[i]; r <= re.Rune[i+1]; r++ {
				ls = append(ls, Literal{Text: string(r)})
			}
		}
		return exactSet(ls...), true
	case syntax.OpEmptyMatch, syntax.OpBeginLine, syntax.OpEndLine, syntax.OpBeginText,
		syntax.OpEndText, syntax.OpWordBoundary, syntax.OpNoWordBoundary:
		return empty, true
	case syntax.OpCapture:
		return extract(re.Sub[0])
	case syntax.OpPlus:
		set, ok := extract(re.Sub[0])
		return litSet{lits: set.lits, pre: set.pre}, ok
	case syntax.OpQuest:
		return optional(re.Sub[0])
	case syntax.OpRepeat:
		switch {
		case re.Min == 0 && re.Max == 1:
			return optional(re.Sub[0])
		case re.Min == 0:
			return litSet{}, false
		}
		set, ok := extract(re.Sub[0])
		if !ok || re.Min == 1 && re.Max == 1 {
			return set, ok
		}
		if set.exact && re.Min == re.Max {
			power := empty.lits
			for range re.Min {
				if power, ok = cross(power, set.lits); !ok {
					break
				}
			}
			if ok {
				return exactSet(power...), true
			}
		}
		return litSet{lits: set.lits, pre: set.pre}, true
	case syntax.OpConcat:
		return concat(re.Sub)
	case syntax.OpAlternate:
		set := litSet{exact: true, pre: []Literal{}}
		for _, sub := range re.Sub {
			s, ok := extract(sub)
			if !ok {
				return litSet{}, false
			}
			set.lits = append(set.lits, s.lits...)
			set.exact = set.exact && s.exact
			if set.pre != nil && s.pre != nil {
				set.pre = append(set.pre, s.pre...)
			} else {
				set.pre = nil
			}
		}
		set.lits = dedupe(set.lits)
		set.pre = dedupe(set.pre)
		return set, true
	}
	return litSet{}, false
}

// optional is the set of sub? : sub's strings or nothing, when sub is exact.
func optional(sub *syntax.Regexp) (litSet, bool) {
	set, ok := extract(sub)
	if !ok || !set.exact {
		return litSet{}, false
	}
	return exactSet(dedupe(append(slices.Clone(set.lits), Literal{}))...), true
}

// concat walks the parts of a concatenation: runs of exact parts expand
// into their cross product, which a part known only by its prefixes ends;
// the best of those runs and of the parts' own sets is the concatenation's.
func concat(subs []*syntax.Regexp) (litSet, bool) {
	var best, pre []Literal
	consider := func(ls []Literal) {
		if usable(ls) && (best == nil || better(ls, best)) {
			best = ls
		}
	}
	whole := true
	run := empty.lits
	for _, sub := range subs {
		s, ok := extract(sub)
		if ok && s.exact {
			if prod, ok := cross(run, s.lits); ok {
				run = prod
				continue
			}
		}
		// The run ends here: it, or it followed by this part's prefixes,
		// starts every match of the run and this part.
		end := run
		if ok && s.pre != nil {
			if prod, ok := cross(run, s.pre); ok {
				end = prod
			}
		}
		consider(end)
		if whole {
			pre, whole = end, false
		}
		run = empty.lits
		if ok {
			consider(s.lits)
			if s.exact {
				run = s.lits
			}
		}
	}
	if whole {
		return exactSet(run...), true
	}
	consider(run)
	return litSet{lits: best, pre: pre}, best != nil
}

// cross returns every string of a followed by every string of b; ok is
// false when there would be too many, or when a folded string would meet an
// exact one holding letters.
func cross(a, b []Literal) ([]Literal, bool) {
	if len(a)*len(b) > maxCross {
		return nil, false
	}
	out := make([]Literal, 0, len(a)*len(b))
	for _, x := range a {
		for _, y := range b {
			if x.Fold != y.Fold && (!x.Fold && hasLetter(x.Text) || !y.Fold && hasLetter(y.Text)) {
				return nil, false
			}
			out = append(out, Literal{Text: x.Text + y.Text, Fold: x.Fold || y.Fold})
		}
	}
	return dedupe(out), true
}

// literalNode is the set of a literal: itself, or, when it is case-folded
// and holds a character with a non-ASCII spelling (k: the Kelvin sign; s:
// the long s; most non-ASCII letters), the longest part without one.
func literalNode(runes []rune, fold bool) (litSet, bool) {
	if !fold {
		return exactSet(Literal{Text: string(runes)}), true
	}
	var parts []string
	var b strings.Builder
	for _, r := range runes {
		if !asciiFold(r) {
			parts = append(parts, b.String())
			b.Reset()
			continue
		}
		if 'A' <= r && r <= 'Z' {
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	if parts == nil {
		return exactSet(Literal{Text: b.String(), Fold: true}), true
	}
	parts = append(parts, b.String())
	longest := 0
	for i, p := range parts {
		if len(p) > len(parts[longest]) {
			longest = i
		}
	}
	if parts[longest] == "" {
		return litSet{}, false
	}
	set := litSet{lits: []Literal{{Text: parts[longest], Fold: true}}}
	if parts[0] != "" {
		set.pre = []Literal{{Text: parts[0], Fold: true}}
	}
	return set, true
}

// asciiFold reports whether every spelling of r under case folding is
// ASCII: then ASCII case folding finds it.
func asciiFold(r rune) bool {
	if r >= utf8.RuneSelf {
		return unicode.SimpleFold(r) == r
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf {
			return false
		}
	}
	return true
}

func hasLetter(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i] | 0x20; 'a' <= c && c <= 'z' {
			return true
		}
	}
	return false
}

// usable reports whether s filters at all: no empty string, and not so
// common that most lines hold one (a digit class: every timestamp does).
func usable(ls []Literal) bool {
	return len(ls) > 0 && weight(ls) <= 0.05
}

// better reports whether a filters better than b: fewer lines hold one of
// its strings, by weight.
func better(a, b []Literal) bool {
	return weight(a) < weight(b)
}

// weight guesses the share of byte positions where one of the strings of
// s starts, from how common each byte is in command output.
func weight(ls []Literal) float64 {
	total, freq := 0.0, literal.Frequencies()
	for _, l := range ls {
		w := 1.0
		for i := 0; i < len(l.Text); i++ {
			c := l.Text[i]
			p := freq[c]
			if l.Fold && 'a' <= c && c <= 'z' {
				p += freq[c-'a'+'A']
			}
			w *= p
		}
		total += w
	}
	return total
}

func dedupe(ls []Literal) []Literal {
	if len(ls) <= 16 {
		for i := 0; i < len(ls); i++ {
			if slices.Contains(ls[:i], ls[i]) {
				ls = slices.Delete(ls, i, i+1)
				i--
			}
		}
		return ls
	}
	seen := make(map[Literal]bool, len(ls))
	return slices.DeleteFunc(ls, func(l Literal) bool {
		if seen[l] {
			return true
		}
		seen[l] = true
		return false
	})
}
