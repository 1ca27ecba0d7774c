package redact

import "strings"

// edit collects replacements of parts of a string, left to right.
type edit struct {
	s    string
	b    strings.Builder
	last int
}

// hide replaces s[start:end] with Mask.
func (e *edit) hide(start, end int) {
	if start < e.last || start >= end {
		return
	}
	e.b.WriteString(e.s[e.last:start])
	e.b.WriteString(Mask)
	e.last = end
}

func (e *edit) String() string {
	if e.last == 0 {
		return e.s
	}
	e.b.WriteString(e.s[e.last:])
	return e.b.String()
}

// headers hides the value of every secret header: "Authorization: Bearer
// x" becomes "Authorization: ***". The value runs to the end of the line,
// or to the closing quote when a quote opens the header, as in
// curl -H 'Authorization: Bearer x' URL.
func headers(s string) string {
	e := edit{s: s}
	for i := strings.IndexByte(s, ':'); i >= 0; {
		start := i
		for start > 0 && (isAlnum(s[start-1]) || s[start-1] == '-' || s[start-1] == '_') {
			start--
		}
		v := i + 1
		for v < len(s) && (s[v] == ' ' || s[v] == '\t') {
			v++
		}
		next := v
		if start < i && (start == 0 || headerBoundary(s[start-1])) && secretHeader(s[start:i]) {
			end := strings.IndexAny(s[v:], "\r\n")
			if start > 0 && isQuote(s[start-1]) {
				end = strings.IndexByte(s[v:], s[start-1])
			}
			if end < 0 {
				end = len(s) - v
			}
			// A line quoted whole ("... Authorization: x") keeps its
			// closing quote.
			if last := v + end - 1; end > 1 && isQuote(s[last]) &&
				strings.IndexByte(s[strings.LastIndexByte(s[:start], '\n')+1:start], s[last]) >= 0 {
				end--
			}
			e.hide(v, v+end)
			next = v + end
		}
		if next >= len(s) {
			break
		}
		j := strings.IndexByte(s[next:], ':')
		if j < 0 {
			break
		}
		i = next + j
	}
	return e.String()
}

// headerBoundary reports whether c may come just before a header's name:
// not in the middle of a URL (https://x-access-token:...@host).
func headerBoundary(c byte) bool {
	return isSpace(c) || isQuote(c) || strings.IndexByte("=,;([{<>|", c) >= 0
}

// urls hides the user information of every URL:
// https://user:pass@example.com/ becomes https://***@example.com/. A user
// name alone is hidden too: it is often a token (https://TOKEN@github.com).
func urls(s string) string {
	e := edit{s: s}
	for off := 0; ; {
		i := strings.Index(s[off:], "://")
		if i < 0 {
			break
		}
		start := off + i + 3
		end := start
		for end < len(s) && !isSpace(s[end]) && !strings.ContainsRune("\"'<>", rune(s[end])) {
			end++
		}
		if n := userinfo(s[start:end]); n > 0 {
			e.hide(start, start+n)
		}
		off = end
	}
	return e.String()
}

// userinfo returns the length of the user information at the start of u,
// a URL after its "scheme://", or 0 when there is none. By the rules it ends
// at the last @ before the first /, ? or #; but a password written with a
// raw / in it (user:pa/ss@host) is common enough to count too: after
// user: that is not a port, it ends at the last @ of the URL.
func userinfo(u string) int {
	auth := u
	if i := strings.IndexAny(u, "/?#"); i >= 0 {
		auth = u[:i]
	}
	if at := strings.LastIndexByte(auth, '@'); at > 0 {
		return at
	}
	colon := strings.IndexByte(auth, ':')
	if colon <= 0 {
		return 0
	}
	port := true
	for i := colon + 1; i < len(auth); i++ {
		port = port && isDigit(auth[i])
	}
	if port && len(auth) < len(u) {
		return 0
	}
	if at := strings.LastIndexByte(u, '@'); at > colon {
		return at
	}
	return 0
}

// queryParams hides the value of every secret parameter of a URL query or
// a form: ?access_token=X&page=2 becomes ?access_token=***&page=2.
func queryParams(s string) string {
	e := edit{s: s}
	for i := 0; i < len(s); i++ {
		if s[i] != '?' && s[i] != '&' {
			continue
		}
		eq := i + 1
		for eq < len(s) && (isAlnum(s[eq]) || strings.IndexByte("_.-[]", s[eq]) >= 0) {
			eq++
		}
		if eq == i+1 || eq >= len(s) || s[eq] != '=' || !secretKey(s[i+1:eq]) {
			continue
		}
		end := eq + 1
		for end < len(s) && !isSpace(s[end]) && !strings.ContainsRune("&#\"'", rune(s[end])) {
			end++
		}
		e.hide(eq+1, end)
		i = end - 1
	}
	return e.String()
}

// jsonValues hides the string value of every secret key of a JSON object:
// {"token": "x"} becomes {"token": "***"}.
func jsonValues(s string) string {
	e := edit{s: s}
	for i := 0; i < len(s); i++ {
		if s[i] != '"' {
			continue
		}
		k := strings.IndexByte(s[i+1:], '"')
		if k < 0 {
			break
		}
		keyEnd := i + 1 + k
		j := keyEnd + 1
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j >= len(s) || s[j] != ':' {
			i = keyEnd - 1 // the closing quote may open the next string
			continue
		}
		j++
		for j < len(s) && (s[j] == ' ' || s[j] == '\t') {
			j++
		}
		if j >= len(s) || s[j] != '"' {
			i = j - 1
			continue
		}
		end := j + 1
		for end < len(s) && s[end] != '"' {
			if s[end] == '\\' {
				end++
			}
			end++
		}
		if end > len(s) {
			end = len(s)
		}
		if secretKey(s[i+1 : keyEnd]) {
			e.hide(j+1, end)
		}
		i = end
	}
	return e.String()
}

// knownTokens hides tokens whose form gives them away wherever they
// appear: GitHub (ghp_, github_pat_), GitLab (glpat-), Slack (xoxb-), AWS
// access key ids (AKIA), Stripe (sk_live_), npm (npm_), Hugging Face (hf_),
// OpenAI-style (sk-) keys, and JSON Web Tokens (eyJ....eyJ....sig).
func knownTokens(s string) string {
	e := edit{s: s}
	for i := 0; i < len(s); i++ {
		if i > 0 && isTokenChar(s[i-1]) {
			continue
		}
		if n := tokenAt(s[i:]); n > 0 {
			e.hide(i, i+n)
			i += n - 1
		}
	}
	return e.String()
}

// tokenAt returns the length of the well-known token at the start of s, or 0.
func tokenAt(s string) int {
	if strings.HasPrefix(s, "eyJ") {
		n, dots := 0, 0
		for n < len(s) && (isTokenChar(s[n]) || s[n] == '.') {
			if s[n] == '.' {
				dots++
			}
			n++
		}
		if dots == 2 && n >= 24 && strings.HasPrefix(s[strings.IndexByte(s, '.')+1:], "eyJ") {
			return n
		}
		return 0
	}
	for _, p := range [...]string{
		"ghp_", "gho_", "ghu_", "ghs_", "ghr_", "github_pat_", "glpat-",
		"xoxb-", "xoxp-", "xoxa-", "xoxr-", "xoxs-", "xapp-", "AKIA", "ASIA",
		"sk_live_", "rk_live_", "sk_test_", "npm_", "hf_", "sk-",
	} {
		if !strings.HasPrefix(s, p) {
			continue
		}
		n := len(p)
		for n < len(s) && isTokenChar(s[n]) {
			n++
		}
		if n-len(p) >= 16 {
			return n
		}
		return 0
	}
	return 0
}

func isTokenChar(c byte) bool { return isAlnum(c) || c == '_' || c == '-' }

// bearer hides the credential after the Bearer authentication scheme
// (RFC 6750) even without a header name: "Bearer x" becomes "Bearer ***",
// as in a bare "Bearer $TOKEN" argument. The scheme must stand as a word
// of its own; written in another case than "Bearer", it counts only
// before a token of 8 characters or more, so that prose ("the bearer of")
// stays as it is.
func bearer(s string) string {
	const scheme = "bearer"
	e := edit{s: s}
	for off := 0; off+len(scheme) < len(s); {
		i := strings.Index(strings.ToLower(s[off:]), scheme)
		if i < 0 {
			break
		}
		start := off + i
		v := start + len(scheme)
		off = v
		if start > 0 && (isAlnum(s[start-1]) || s[start-1] == '_' || s[start-1] == '-') {
			continue
		}
		for v < len(s) && (s[v] == ' ' || s[v] == '\t') {
			v++
		}
		if v == start+len(scheme) {
			continue // not followed by a blank: "Bearer" alone, "bearer_x"
		}
		end := v
		for end < len(s) && tokenChar(s[end]) {
			end++
		}
		if s[v:end] == Mask || end == v || s[start:start+len(scheme)] != "Bearer" && end-v < 8 {
			continue
		}
		e.hide(v, end)
		off = end
	}
	return e.String()
}

// tokenChar reports whether c may be part of an RFC 6750 b64token.
func tokenChar(c byte) bool {
	return isAlnum(c) || strings.IndexByte("-._~+/=", c) >= 0
}
