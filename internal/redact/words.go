package redact

import "strings"

// scan redacts a sequence of words, the arguments of a command or the words
// of a line, carrying what one word says about the next: --password makes
// the next word a secret.
type scan struct {
	shell bool    // the words come from text: quotes may span words
	next  bool    // the next word is the value of a secret flag
	until byte    // inside a hidden quoted value: hide words up to this quote
	quote byte    // the quote that opens the current word, in text
	prog  program // the program whose own flags are being read

	// script reports that the next argument is a shell script (sh -c
	// SCRIPT): Args redacts it as text, word by word.
	script bool
}

// program describes the flags of one program that take a secret although
// their names do not say so.
type program struct {
	short    byte     // a short flag whose value is a secret: -u for curl
	short2   byte     // a second one: -U for curl
	attached bool     // the value counts only when attached: mysql -pX (-p alone prompts)
	long     []string // long flags whose value is a secret: curl --user
	after    string   // the flags count only after this word: docker login
	armed    bool     // after has been seen
	shell    bool     // a shell: -c takes a script
}

// programFor returns the rules of the program that word runs, if retry
// knows them. The program is recognised anywhere among the words, so
// `sudo mysql -pX` and `sh -c 'curl -u a:b URL'` are covered.
func programFor(word string) (program, bool) {
	base := word[strings.LastIndexAny(word, `/\`)+1:]
	base = strings.TrimSuffix(strings.ToLower(base), ".exe")
	switch base {
	case "curl":
		return program{short: 'u', short2: 'U', long: []string{"user", "proxy-user"}}, true
	case "mysql", "mysqldump", "mysqladmin", "mysqlimport", "mysqlshow",
		"mysqlcheck", "mysqlpump", "mysqlslap", "mariadb", "mariadb-dump",
		"mariadb-admin":
		return program{short: 'p', attached: true}, true
	case "sshpass", "mongo", "mongosh", "mongodump", "mongorestore",
		"mongoexport", "mongoimport":
		return program{short: 'p'}, true
	case "redis-cli":
		return program{short: 'a'}, true
	case "docker", "podman", "nerdctl", "buildah", "skopeo", "helm", "oras":
		return program{short: 'p', after: "login"}, true
	case "sh", "bash", "dash", "zsh", "ksh", "mksh", "ash", "busybox", "fish":
		return program{shell: true}, true
	}
	return program{}, false
}

// active reports whether the program's own rules apply to the next word.
func (p *program) active() bool {
	return p.short != 0 && (p.after == "" || p.armed)
}

// longFlag reports whether name is one of the program's secret long flags.
func (p *program) longFlag(name string) bool {
	if !p.active() {
		return false
	}
	for _, l := range p.long {
		if name == l {
			return true
		}
	}
	return false
}

// word returns w with its secrets hidden and notes what w says about the
// next word. In text, field calls it with the quote that opens w removed.
func (st *scan) word(w string) string {
	if st.next {
		st.next = false
		return st.value(w)
	}
	if p, ok := programFor(w); ok {
		st.prog = p
		return w
	}
	if st.prog.after != "" && w == st.prog.after {
		st.prog.armed = true
	}
	if len(w) > 1 && w[0] == '-' && w != "--" {
		dashes := 1
		if w[1] == '-' {
			dashes = 2
		}
		name := w[dashes:]
		if dashes == 1 && st.prog.active() && (name[0] == st.prog.short || (st.prog.short2 != 0 && name[0] == st.prog.short2)) {
			if len(name) == 1 {
				st.next = !st.prog.attached
				return w
			}
			return w[:2] + st.value(name[1:])
		}
		if dashes == 1 && st.prog.shell && strings.IndexByte(name, 'c') >= 0 && strings.IndexByte(name, '=') < 0 {
			st.script = true
			return w
		}
		if eq := strings.IndexByte(name, '='); eq >= 0 {
			if secretKey(name[:eq]) || (dashes == 2 && st.prog.longFlag(name[:eq])) {
				return w[:dashes+eq+1] + st.value(name[eq+1:])
			}
			return w
		}
		if (len(name) > 1 && secretFlag(name)) || (dashes == 2 && st.prog.longFlag(name)) {
			st.next = true
			return w
		}
		return w
	}
	if eq := strings.IndexByte(w, '='); eq > 0 && envName(w[:eq]) && secretKey(w[:eq]) {
		return w[:eq+1] + st.value(w[eq+1:])
	}
	return w
}

// value returns Mask for v, the secret value at the end of a word. In text,
// a quote around the value is kept, and a quote left open makes the words
// up to the closing one part of the value.
func (st *scan) value(v string) string {
	if v == "" {
		return v
	}
	if !st.shell {
		return Mask
	}
	q := st.quote
	open := ""
	if isQuote(v[0]) {
		q = v[0]
		open, v = v[:1], v[1:]
	}
	if q == 0 {
		return Mask
	}
	if i := strings.IndexByte(v, q); i >= 0 {
		return open + Mask + v[i:]
	}
	st.until = q
	return open + Mask
}

// fields redacts s word by word, keeping the white space between words,
// and the words that are part of one hidden value are hidden as one.
func fields(s string) string {
	st := scan{shell: true}
	var b strings.Builder
	b.Grow(len(s))
	i := 0
	for i < len(s) {
		j := i
		for j < len(s) && isSpace(s[j]) {
			j++
		}
		k := j
		for k < len(s) && !isSpace(s[k]) {
			k++
		}
		if j == k {
			b.WriteString(s[i:j])
			break
		}
		w, glue := st.field(s[j:k])
		if !glue {
			b.WriteString(s[i:j])
		}
		b.WriteString(w)
		i = k
	}
	return b.String()
}

// field redacts one word of text. glue reports that the word belongs to
// the hidden value before it, so the space before it goes too.
func (st *scan) field(w string) (out string, glue bool) {
	if st.until != 0 {
		i := strings.IndexByte(w, st.until)
		if i < 0 {
			return "", true
		}
		st.until = 0
		return w[i:], true
	}
	st.quote = 0
	if isQuote(w[0]) && !st.next {
		st.quote = w[0]
		return w[:1] + st.word(w[1:]), false
	}
	return st.word(w), false
}
