// Package redact hides credentials in what retry shows: a command's
// arguments, reasons that quote the command's output, and anything the user
// names with --redact. It is internal: other Go programs cannot import it.
//
// The built-in rules recognise the usual ways a secret reaches a command
// line: the value of a flag named like a credential (--password X,
// --token=X), the user information of a URL (https://user:pass@host/), a
// secret query parameter (?access_token=X), an Authorization, Cookie or
// X-Api-Key header, a "Bearer x" credential, KEY=VALUE where KEY names a secret, "key": "value" in
// JSON, a few programs' own short flags (curl -u, mysql -pX) and tokens with a
// well-known prefix (ghp_, glpat-, xoxb-, AKIA...). Each secret is replaced by
// Mask. The rules need no regular expression, so a Redactor costs nothing
// until it is used.
package redact

import (
	"errors"
	"fmt"
	"regexp"
	"regexp/syntax"
	"strconv"
	"strings"
	"unicode/utf8"
)

// Mask replaces every secret.
const Mask = "***"

// MaxReason is the length, in characters, to which Reason cuts a text.
const MaxReason = 200

// Redactor hides secrets. A nil or zero Redactor applies the built-in rules
// only.
type Redactor struct {
	patterns []*regexp.Regexp
}

// New returns a Redactor that hides, besides what the built-in rules find,
// every match of patterns (Go RE2 syntax, as given to --redact). When a
// pattern has a capturing group, only the text of its first group is hidden,
// so `token=(\w+)` keeps the name and hides the value. A pattern that matches
// the empty string is an error: it would hide nothing, or everything.
func New(patterns []string) (*Redactor, error) {
	r := &Redactor{}
	for _, p := range patterns {
		re, err := regexp.Compile(p)
		if err != nil {
			// The parser's message quotes the pattern raw: a newline
			// in it would break the one line an error takes.
			var serr *syntax.Error
			if errors.As(err, &serr) {
				return nil, fmt.Errorf("bad regular expression %q: %s", p, serr.Code)
			}
			return nil, fmt.Errorf("bad regular expression %q: %w", p, err)
		}
		if re.MatchString("") {
			return nil, fmt.Errorf("%q matches the empty string: it would hide nothing, or everything", p)
		}
		r.patterns = append(r.patterns, re)
	}
	return r, nil
}

// Args returns a copy of argv, a command and its arguments, with every
// secret replaced by Mask. argv itself is not changed. An argument that is
// a whole script (sh -c '...') is redacted as Text is.
func (r *Redactor) Args(argv []string) []string {
	out := make([]string, len(argv))
	var st scan
	for i, a := range argv {
		if st.script {
			st.script = false
			out[i] = r.Text(a)
			continue
		}
		w := st.word(a)
		if w != Mask {
			w = r.Text(w)
		}
		out[i] = w
	}
	return out
}

// Text returns s with every secret replaced by Mask. s is free text: a
// line of a command's output, a shell script, a reason. Words are split at
// white space and quotes are followed the way a shell would, so the value of
// PASSWORD='a b' is hidden whole.
func (r *Redactor) Text(s string) string {
	s = urls(s)
	s = headers(s)
	s = bearer(s)
	s = queryParams(s)
	s = jsonValues(s)
	s = knownTokens(s)
	s = fields(s)
	if r != nil {
		for _, re := range r.patterns {
			s = replacePattern(re, s)
		}
	}
	return s
}

// Reason returns s, a reason or a line of a command's output, ready to be
// shown on one line: redacted as Text does, with control characters
// escaped (\x1b, \n), and cut to at most MaxReason characters, the last of
// them an ellipsis when it was cut. Redaction comes before the cut, so a
// cut never leaves part of a secret that a rule would have hidden whole.
func (r *Redactor) Reason(s string) string {
	s = strings.ToValidUTF8(r.Text(s), "\uFFFD")
	s = escapeControls(s)
	if utf8.RuneCountInString(s) <= MaxReason {
		return s
	}
	n := 0
	for i := range s {
		if n == MaxReason-1 {
			return s[:i] + "…"
		}
		n++
	}
	return s
}

// escapeControls writes control characters as Go escapes, so that no
// escape sequence from a command's output reaches a terminal through a
// reason, and a reason stays on one line. A tab becomes a space.
func escapeControls(s string) string {
	clean := true
	for _, c := range s {
		if isControl(c) {
			clean = false
			break
		}
	}
	if clean {
		return s
	}
	var b strings.Builder
	for _, c := range s {
		switch {
		case c == '\t':
			b.WriteByte(' ')
		case isControl(c):
			q := strconv.QuoteRune(c)
			b.WriteString(q[1 : len(q)-1])
		default:
			b.WriteRune(c)
		}
	}
	return b.String()
}

func isControl(c rune) bool {
	return c < 0x20 || (c >= 0x7f && c < 0xa0) || c == '\u2028' || c == '\u2029'
}

// replacePattern hides every non-empty match of re in s, or the text of
// its first group when it has one.
func replacePattern(re *regexp.Regexp, s string) string {
	matches := re.FindAllStringSubmatchIndex(s, -1)
	if matches == nil {
		return s
	}
	var b strings.Builder
	last := 0
	for _, m := range matches {
		start, end := m[0], m[1]
		if len(m) >= 4 && m[2] >= 0 {
			start, end = m[2], m[3]
		}
		if start >= end || start < last {
			continue
		}
		b.WriteString(s[last:start])
		b.WriteString(Mask)
		last = end
	}
	b.WriteString(s[last:])
	return b.String()
}
