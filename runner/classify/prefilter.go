package classify

import (
	"bytes"
	"regexp/syntax"
	"strings"
	"unicode"
	"unicode/utf8"
)

// A prefilter finds, fast, the places in a run of output lines where a
// pattern might match: every match of the pattern contains one of its
// literals, so a line without any of them needs no regular expression at all.
// Searching a whole chunk of lines with bytes.Index / IndexByte (vectorised
// in the standard library) is what keeps the matcher near memory speed.
type prefilter struct {
	lits []literal
}

// literal is one string that a match must contain. It is found through an
// anchor: one of its bytes, searched with IndexByte, whose case variants (for
// a case-folded literal) are all ASCII. The anchor is re-chosen from time to
// time as the byte of the literal that is rarest in the output seen.
type literal struct {
	text    []byte // exact bytes; lower case when exactFold
	fold    bool
	verify  bool // a candidate can be checked against text byte for byte
	anchors []anchor
	cur     anchor // the anchor in use
	untune  int    // bytes left to search before the anchor is chosen again
	cursor  int    // next known occurrence at or after the last search start; -1 unknown, -2 none
	nextLo  int    // next position of cur.lower, when cursor is unknown; -1 unknown
	nextUp  int    // same for cur.upper
}

// anchor is a byte offset in text and the byte's spellings there.
type anchor struct {
	at           int
	lower, upper byte
}

// retune is how many bytes are searched between choices of an anchor, and
// tuneSample how much of a chunk the choice looks at.
const (
	retune     = 1 << 20
	tuneSample = 16 << 10
)

// maxLiterals bounds the alternatives a prefilter tries; a pattern needing
// more is matched line by line instead.
const maxLiterals = 4

// newPrefilter returns the prefilter of expr, or nil when no literal is
// required (then every line is matched).
func newPrefilter(expr string) *prefilter {
	re, err := syntax.Parse(expr, syntax.Perl)
	if err != nil {
		return nil
	}
	runes := required(re)
	if len(runes) == 0 {
		return nil
	}
	p := &prefilter{}
	for _, r := range runes {
		lit, ok := newLiteral(r.runes, r.fold)
		if !ok {
			return nil
		}
		p.lits = append(p.lits, lit)
	}
	return p
}

// requirement is a literal that every match contains.
type requirement struct {
	runes []rune
	fold  bool
}

// required returns a set of literals one of which every match of re
// contains, or nil when it cannot tell.
func required(re *syntax.Regexp) []requirement {
	switch re.Op {
	case syntax.OpLiteral:
		if len(re.Rune) == 0 {
			return nil
		}
		return []requirement{{re.Rune, re.Flags&syntax.FoldCase != 0}}
	case syntax.OpCapture, syntax.OpPlus:
		return required(re.Sub[0])
	case syntax.OpRepeat:
		if re.Min >= 1 {
			return required(re.Sub[0])
		}
	case syntax.OpConcat:
		var best []requirement
		for _, sub := range re.Sub {
			if r := required(sub); r != nil && (best == nil || better(r, best)) {
				best = r
			}
		}
		return best
	case syntax.OpAlternate:
		var all []requirement
		for _, sub := range re.Sub {
			r := required(sub)
			if r == nil || len(all)+len(r) > maxLiterals {
				return nil
			}
			all = append(all, r...)
		}
		return all
	}
	return nil
}

// better reports whether requirement set a filters more than b: fewer
// alternatives first, then a longer shortest literal.
func better(a, b []requirement) bool {
	if len(a) != len(b) {
		return len(a) < len(b)
	}
	return shortest(a) > shortest(b)
}

func shortest(rs []requirement) int {
	n := -1
	for _, r := range rs {
		if n < 0 || len(r.runes) < n {
			n = len(r.runes)
		}
	}
	return n
}

// newLiteral prepares the search for one required literal.
func newLiteral(runes []rune, fold bool) (literal, bool) {
	text := []byte(string(runes))
	lit := literal{text: text, fold: fold, verify: true, cursor: -1}
	if !fold {
		for i, c := range text {
			lit.anchors = append(lit.anchors, anchor{i, c, c})
		}
	} else {
		for i, r := range string(text) {
			if r >= utf8.RuneSelf || r == 'K' || r == 'S' {
				lit.verify = false // a match may spell it as a longer non-ASCII rune
			}
			if lower, upper, ok := asciiOrbit(r); ok {
				lit.anchors = append(lit.anchors, anchor{i, lower, upper})
			}
		}
		if lit.verify {
			lit.text = bytes.ToLower(text)
		}
	}
	if len(lit.anchors) == 0 {
		return literal{}, false
	}
	lit.cur = lit.anchors[0]
	for _, a := range lit.anchors[1:] {
		if a.cost() < lit.cur.cost() {
			lit.cur = a
		}
	}
	lit.untune = retune
	return lit, true
}

// cost guesses how often the anchor's bytes appear in output.
func (a anchor) cost() int {
	if a.lower == a.upper {
		return byteFrequency(a.lower)
	}
	return byteFrequency(a.lower) + byteFrequency(a.upper)
}

// tune chooses as anchor the byte of the literal that is rarest in sample.
func (l *literal) tune(sample []byte) {
	best := -1
	for _, a := range l.anchors {
		n := bytes.Count(sample, []byte{a.lower})
		if a.upper != a.lower {
			n += bytes.Count(sample, []byte{a.upper})
		}
		if best < 0 || n < best {
			best, l.cur = n, a
		}
		if n == 0 {
			break
		}
	}
}

// asciiOrbit returns the spellings of r under simple case folding when all of
// them are ASCII bytes.
func asciiOrbit(r rune) (lower, upper byte, ok bool) {
	if r >= utf8.RuneSelf {
		return 0, 0, false
	}
	for f := unicode.SimpleFold(r); f != r; f = unicode.SimpleFold(f) {
		if f >= utf8.RuneSelf {
			return 0, 0, false
		}
	}
	l, u := unicode.ToLower(r), unicode.ToUpper(r)
	return byte(l), byte(u), true
}

// reset forgets the cached occurrences before chunk b is searched, and
// chooses the anchors again now and then.
func (p *prefilter) reset(b []byte) {
	for i := range p.lits {
		l := &p.lits[i]
		l.cursor, l.nextLo, l.nextUp = -1, -1, -1
		if l.untune -= len(b); l.untune < 0 && len(l.anchors) > 1 {
			l.tune(b[:min(len(b), tuneSample)])
			l.untune = retune
		}
	}
}

// next returns the offset in b, at or after from, of the earliest place
// where one of the literals may occur, or -1. The offset points into the
// candidate's line; callers match that whole line. Calls on one chunk must
// come with from increasing, after a reset.
func (p *prefilter) next(b []byte, from int) int {
	at := -1
	for i := range p.lits {
		l := &p.lits[i]
		if l.cursor < from && l.cursor != -2 {
			l.cursor = l.find(b, from)
		}
		if l.cursor >= 0 && (at < 0 || l.cursor < at) {
			at = l.cursor
		}
	}
	return at
}

// find returns the first occurrence at or after from, or -2 for none (so
// that the literal is not searched again in this chunk).
func (l *literal) find(b []byte, from int) int {
	for pos := from + l.cur.at; pos < len(b); {
		j := l.anchorAt(b, pos)
		if j < 0 {
			return -2
		}
		if !l.verify {
			return j
		}
		start := j - l.cur.at
		if end := start + len(l.text); end <= len(b) && l.equal(b[start:end]) {
			return start
		}
		pos = j + 1
	}
	return -2
}

// anchorAt returns the first position at or after pos of either spelling of
// the anchor byte, or -1. It remembers both spellings' next positions, so
// that a chunk is scanned once for each.
func (l *literal) anchorAt(b []byte, pos int) int {
	if l.nextLo < pos && l.nextLo != -2 {
		l.nextLo = indexFrom(b, pos, l.cur.lower)
	}
	if l.cur.upper == l.cur.lower {
		if l.nextLo < 0 {
			return -1
		}
		return l.nextLo
	}
	if l.nextUp < pos && l.nextUp != -2 {
		l.nextUp = indexFrom(b, pos, l.cur.upper)
	}
	switch {
	case l.nextLo < 0 && l.nextUp < 0:
		return -1
	case l.nextLo < 0:
		return l.nextUp
	case l.nextUp < 0:
		return l.nextLo
	}
	return min(l.nextLo, l.nextUp)
}

// indexFrom is IndexByte from pos, -2 when c is not there.
func indexFrom(b []byte, pos int, c byte) int {
	if i := bytes.IndexByte(b[pos:], c); i >= 0 {
		return pos + i
	}
	return -2
}

// equal checks a candidate against the literal.
func (l *literal) equal(s []byte) bool {
	if !l.fold {
		return bytes.Equal(s, l.text)
	}
	return asciiEqualFold(s, l.text)
}

// asciiEqualFold compares s with lower, which is lower case ASCII.
func asciiEqualFold(s, lower []byte) bool {
	for i, c := range s {
		if 'A' <= c && c <= 'Z' {
			c += 'a' - 'A'
		}
		if c != lower[i] {
			return false
		}
	}
	return true
}

// byteFrequency ranks b by how often it appears in typical command output
// (English text, logs, paths, numbers): a rough guide for choosing the
// rarest anchor byte of a case-folded literal.
func byteFrequency(b byte) int {
	for _, g := range [...]struct {
		bytes string
		freq  int
	}{
		{" ", 255}, {"e", 120}, {"t", 90}, {"ao", 80}, {"in", 70},
		{"srh", 60}, {"0123456789", 45}, {"dl", 40}, {"cu:./-=", 28},
		{"mwfgyp", 22}, {"b_,\"'", 15}, {"vk[]()", 9}, {"ETAOINSRH", 8},
		{"\t<>@#DLCUMWFGYPBVK", 4}, {"jxqzJXQZ", 2},
	} {
		if strings.IndexByte(g.bytes, b) >= 0 {
			return g.freq
		}
	}
	return 1
}
