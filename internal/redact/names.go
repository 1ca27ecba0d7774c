package redact

import "strings"

// words splits a name such as DB_PASSWORD, --api-key, x.authToken or
// X-Api-Key into lower-case words: at every character that is not a letter
// or a digit, and where a lower-case letter meets an upper-case one.
func words(name string) []string {
	var ws []string
	start := -1
	for i := 0; i < len(name); i++ {
		c := name[i]
		alnum := isAlnum(c)
		if start >= 0 && (!alnum || (isUpper(c) && isLower(name[i-1]))) {
			ws = append(ws, strings.ToLower(name[start:i]))
			start = -1
		}
		if alnum && start < 0 {
			start = i
		}
	}
	if start >= 0 {
		ws = append(ws, strings.ToLower(name[start:]))
	}
	return ws
}

// secretKey reports whether name, the KEY of KEY=VALUE or of --key=VALUE,
// a query parameter or a JSON key, names a secret. It is generous: hiding
// the value of a harmless KEY=VALUE costs the reader only that value.
func secretKey(name string) bool {
	for _, w := range words(name) {
		switch w {
		case "key", "pass", "pwd", "auth", "jwt", "otp", "sig":
			return true
		}
		for _, part := range [...]string{
			"password", "passwd", "passphrase", "secret", "token",
			"credential", "apikey", "authorization", "cookie", "session",
			"signature", "privatekey",
		} {
			if strings.Contains(w, part) {
				return true
			}
		}
	}
	return false
}

// secretFlag reports whether a flag named name (without its dashes) takes a
// secret as its value in the next argument (--password VALUE). It is
// strict: when it errs, it hides an argument that is not the flag's value,
// such as the next flag, so only names that clearly hold a secret count.
// The last word decides: --db-password and --auth-token count,
// --password-file, --token-ttl and --no-password do not.
func secretFlag(name string) bool {
	ws := words(name)
	if len(ws) == 0 || ws[0] == "no" {
		return false
	}
	switch last := ws[len(ws)-1]; last {
	case "password", "passwd", "passphrase", "pass", "passin", "passout",
		"secret", "token", "auth", "credential", "credentials", "cookie",
		"apikey", "accesskey", "secretkey", "privatekey", "bearer", "jwt", "otp":
		return true
	case "key":
		if len(ws) < 2 {
			return false
		}
		switch ws[len(ws)-2] {
		case "api", "access", "secret", "auth", "private", "client",
			"license", "master", "encryption", "signing":
			return true
		}
	}
	return false
}

// secretHeader reports whether an HTTP header (or a line written like one)
// named name carries a credential: Authorization, Cookie, X-Api-Key,
// Private-Token and the like. Names without a dash other than the standard
// ones do not count, so that prose such as "bad token: try again" keeps its
// words.
func secretHeader(name string) bool {
	switch strings.ToLower(name) {
	case "authorization", "proxy-authorization", "cookie", "set-cookie", "apikey":
		return true
	}
	return strings.Contains(name, "-") && secretKey(name)
}

// envName reports whether s can be the name in NAME=VALUE: a shell
// variable, or a dotted property such as spring.datasource.password.
func envName(s string) bool {
	if s == "" || isDigit(s[0]) {
		return false
	}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !isAlnum(c) && c != '_' && c != '.' && c != '-' {
			return false
		}
	}
	return isAlnum(s[0]) || s[0] == '_'
}

func isAlnum(c byte) bool { return isLower(c) || isUpper(c) || isDigit(c) }
func isLower(c byte) bool { return 'a' <= c && c <= 'z' }
func isUpper(c byte) bool { return 'A' <= c && c <= 'Z' }
func isDigit(c byte) bool { return '0' <= c && c <= '9' }

// isSpace reports the white space that separates words.
func isSpace(c byte) bool {
	return c == ' ' || c == '\t' || c == '\n' || c == '\r' || c == '\v' || c == '\f'
}

// isQuote reports a shell quote.
func isQuote(c byte) bool { return c == '\'' || c == '"' }
