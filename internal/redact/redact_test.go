package redact

import (
	"slices"
	"strings"
	"testing"
	"unicode/utf8"
)

func TestArgs(t *testing.T) {
	tests := []struct {
		name string
		in   []string
		want []string
	}{
		{"nothing secret", []string{"curl", "-fsS", "https://example.com/"}, []string{"curl", "-fsS", "https://example.com/"}},
		{"empty", []string{}, []string{}},
		{"password flag separate", []string{"tool", "--password", "hunter2", "-v"}, []string{"tool", "--password", "***", "-v"}},
		{"password flag attached", []string{"tool", "--password=hunter2", "-v"}, []string{"tool", "--password=***", "-v"}},
		{"single-dash long flag", []string{"tool", "-token", "abc", "-token=abc"}, []string{"tool", "-token", "***", "-token=***"}},
		{"passwd", []string{"tool", "--passwd", "x"}, []string{"tool", "--passwd", "***"}},
		{"secret", []string{"tool", "--client-secret", "x", "--secret=y"}, []string{"tool", "--client-secret", "***", "--secret=***"}},
		{"api key spellings", []string{"t", "--api-key", "a", "--apikey", "b", "--api_key", "c", "--apiKey", "d"}, []string{"t", "--api-key", "***", "--apikey", "***", "--api_key", "***", "--apiKey", "***"}},
		{"auth token", []string{"t", "--auth-token", "a", "--access-token", "b", "--bearer", "c"}, []string{"t", "--auth-token", "***", "--access-token", "***", "--bearer", "***"}},
		{"secret flag last", []string{"t", "--token"}, []string{"t", "--token"}},
		{"empty attached value", []string{"t", "--token="}, []string{"t", "--token="}},
		{"files are not secrets", []string{"t", "--password-file", "/run/pw", "--token-file", "f", "--key", "k.pem"}, []string{"t", "--password-file", "/run/pw", "--token-file", "f", "--key", "k.pem"}},
		{"boolean negation", []string{"t", "--no-password", "host"}, []string{"t", "--no-password", "host"}},
		{"docker password-stdin", []string{"docker", "login", "--password-stdin", "ghcr.io"}, []string{"docker", "login", "--password-stdin", "ghcr.io"}},
		{"attached key-like names are generous", []string{"t", "--sort-key=name", "--tokenizer=bert"}, []string{"t", "--sort-key=***", "--tokenizer=***"}},
		{"java property", []string{"java", "-Ddb.password=hunter2", "-Dfoo=bar"}, []string{"java", "-Ddb.password=***", "-Dfoo=bar"}},
		{"short p is not a secret in general", []string{"ssh", "-p", "2222", "host"}, []string{"ssh", "-p", "2222", "host"}},
		{"docker run -p", []string{"docker", "run", "-p", "8080:80", "img"}, []string{"docker", "run", "-p", "8080:80", "img"}},
		{"docker login -p", []string{"docker", "login", "-u", "me", "-p", "hunter2", "ghcr.io"}, []string{"docker", "login", "-u", "me", "-p", "***", "ghcr.io"}},
		{"mysql attached", []string{"mysql", "-u", "root", "-phunter2", "db"}, []string{"mysql", "-u", "root", "-p***", "db"}},
		{"mysql prompt", []string{"mysql", "-u", "root", "-p", "db"}, []string{"mysql", "-u", "root", "-p", "db"}},
		{"mysql behind sudo", []string{"sudo", "/usr/bin/mysql", "-phunter2"}, []string{"sudo", "/usr/bin/mysql", "-p***"}},
		{"curl user", []string{"curl", "-u", "admin:hunter2", "-fsS", "https://example.com/"}, []string{"curl", "-u", "***", "-fsS", "https://example.com/"}},
		{"curl user attached", []string{"curl", "-uadmin:hunter2", "--user=admin:pw", "--proxy-user", "a:b"}, []string{"curl", "-u***", "--user=***", "--proxy-user", "***"}},
		{"user elsewhere is no secret", []string{"docker", "run", "--user", "1000", "img"}, []string{"docker", "run", "--user", "1000", "img"}},
		{"sshpass", []string{"sshpass", "-p", "hunter2", "ssh", "host"}, []string{"sshpass", "-p", "***", "ssh", "host"}},
		{"redis-cli", []string{"redis-cli", "-a", "hunter2", "ping"}, []string{"redis-cli", "-a", "***", "ping"}},
		{"url user and password", []string{"curl", "https://user:pass@example.com/"}, []string{"curl", "https://***@example.com/"}},
		{"url token as user", []string{"git", "clone", "https://x-access-token:abc@github.com/o/r.git"}, []string{"git", "clone", "https://***@github.com/o/r.git"}},
		{"url at sign in password", []string{"psql", "postgres://u:p@ss@db:5432/x"}, []string{"psql", "postgres://***@db:5432/x"}},
		{"url at sign in path", []string{"curl", "https://example.com/@user"}, []string{"curl", "https://example.com/@user"}},
		{"url query", []string{"curl", "https://api.example.com/v1?access_token=abc123&page=2"}, []string{"curl", "https://api.example.com/v1?access_token=***&page=2"}},
		{"authorization header", []string{"curl", "-H", "Authorization: Bearer abc.def", "URL"}, []string{"curl", "-H", "Authorization: ***", "URL"}},
		{"bare bearer credential", []string{"grpc-call", "-t", "Bearer abc.def-1~+/=", "URL"}, []string{"grpc-call", "-t", "Bearer ***", "URL"}},
		{"cookie header", []string{"curl", "-H", "Cookie: session=abc", "--header", "x-api-key:k1"}, []string{"curl", "-H", "Cookie: ***", "--header", "x-api-key:***"}},
		{"curl cookie flag", []string{"curl", "--cookie", "sid=abc", "-b", "x"}, []string{"curl", "--cookie", "***", "-b", "x"}},
		{"other headers stay", []string{"curl", "-H", "Accept: application/json"}, []string{"curl", "-H", "Accept: application/json"}},
		{"env assignments", []string{"env", "PGPASSWORD=hunter2", "GITHUB_TOKEN=ghx", "AWS_SECRET_ACCESS_KEY=k", "HOME=/root", "psql"}, []string{"env", "PGPASSWORD=***", "GITHUB_TOKEN=***", "AWS_SECRET_ACCESS_KEY=***", "HOME=/root", "psql"}},
		{"make variables", []string{"make", "deploy", "API_KEY=abc", "CREDENTIALS=x", "AUTH=y", "AUTHOR=me"}, []string{"make", "deploy", "API_KEY=***", "CREDENTIALS=***", "AUTH=***", "AUTHOR=me"}},
		{"known token alone", []string{"gh", "auth", "login", "ghp_1234567890abcdefghijklmnopqrstuvwxyz"}, []string{"gh", "auth", "login", "***"}},
		{"shell script", []string{"sh", "-c", "curl -u admin:hunter2 https://example.com/ && echo done"}, []string{"sh", "-c", "curl -u *** https://example.com/ && echo done"}},
		{"shell script quoted header", []string{"sh", "-c", `curl -H "Authorization: Bearer abc" https://example.com/`}, []string{"sh", "-c", `curl -H "Authorization: ***" https://example.com/`}},
		{"shell script quoted value with spaces", []string{"sh", "-c", "PGPASSWORD='a b c' psql -h db"}, []string{"sh", "-c", "PGPASSWORD='***' psql -h db"}},
		{"shell script flag value", []string{"bash", "-c", `deploy --token "x y" --env prod`}, []string{"bash", "-c", `deploy --token "***" --env prod`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			in := slices.Clone(tt.in)
			got := (*Redactor)(nil).Args(in)
			if !slices.Equal(got, tt.want) {
				t.Errorf("Args(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if !slices.Equal(in, tt.in) {
				t.Errorf("Args changed its argument: %q", in)
			}
		})
	}
}

func TestText(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want string
	}{
		{"plain", "connection refused", "connection refused"},
		{"empty", "", ""},
		{"prose with secret words", "error: bad token: try again", "error: bad token: try again"},
		{"header line", "< Authorization: Basic dXNlcjpwYXNz\n< Accept: */*", "< Authorization: ***\n< Accept: */*"},
		{"bearer alone in text", "sending Bearer eyJhbGc.eyJzdWIi.sig to the api", "sending Bearer *** to the api"},
		{"bearer in lower case, a long token", "sent bearer abcdefgh12", "sent bearer ***"},
		{"the word bearer is not a credential", "the bearer of news; bearer", "the bearer of news; bearer"},
		{"nor in a name", "x-bearer abcdefgh12 Bearers", "x-bearer abcdefgh12 Bearers"},
		{"header with CRLF", "Set-Cookie: sid=1; Path=/\r\nX: y", "Set-Cookie: ***\r\nX: y"},
		{"private token header", "PRIVATE-TOKEN: glx", "PRIVATE-TOKEN: ***"},
		{"header in a quoted line", `matched: "curl: Authorization: Bearer x"`, `matched: "curl: Authorization: ***"`},
		{"header with a quote at the end", `Authorization: Bearer x"`, `Authorization: ***`},
		{"url", "fatal: unable to access 'https://me:tok@example.com/r.git/': 403", "fatal: unable to access 'https://***@example.com/r.git/': 403"},
		{"two urls", "a http://u:p@h1/ b ftp://x@h2", "a http://***@h1/ b ftp://***@h2"},
		{"email is not a url", "mail me@example.com", "mail me@example.com"},
		{"query", "GET /x?page=1&api_key=abc&sig=zz#top", "GET /x?page=1&api_key=***&sig=***#top"},
		{"json", `{"user": "me", "password": "hunter2", "n": 1, "token":"a\"b"}`, `{"user": "me", "password": "***", "n": 1, "token":"***"}`},
		{"json after array value", `{"a": ["x"], "secret": "s"}`, `{"a": ["x"], "secret": "***"}`},
		{"flag in text", "running deploy --password hunter2 now", "running deploy --password *** now"},
		{"flag quoted in text", `run "--token=abc" later`, `run "--token=***" later`},
		{"assignment in text", "export DB_PASSWORD=hunter2; run", "export DB_PASSWORD=*** run"},
		{"unclosed quote hides to the end", "X_TOKEN='a b c", "X_TOKEN='***"},
		{"github token", "token ghp_1234567890abcdefghijklmnopqrstuvwxyz rejected", "token *** rejected"},
		{"gitlab token", "glpat-abcdefghij0123456789", "***"},
		{"slack token", "xoxb-123456789012-123456789012-abcdefghijkl", "***"},
		{"aws key id", "AKIAIOSFODNN7EXAMPLE is invalid", "*** is invalid"},
		{"jwt", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "***"},
		{"short prefixes stay", "sk-learn and hf_hub", "sk-learn and hf_hub"},
		{"token inside a word stays", "mask-abcdefghijklmnopqrstuvwxyz", "mask-abcdefghijklmnopqrstuvwxyz"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := (*Redactor)(nil).Text(tt.in)
			if got != tt.want {
				t.Errorf("Text(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
		})
	}
}

func TestUserPatterns(t *testing.T) {
	r, err := New([]string{`acme-[0-9a-f]{8}`, `ref=(\w+)`})
	if err != nil {
		t.Fatal(err)
	}
	tests := []struct{ in, want string }{
		{"key acme-0123abcd used", "key *** used"},
		{"ref=abc; path=/", "ref=***; path=/"},
		{"acme-0123abcd acme-deadbeef", "*** ***"},
		{"nothing here", "nothing here"},
	}
	for _, tt := range tests {
		if got := r.Text(tt.in); got != tt.want {
			t.Errorf("Text(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
	got := r.Args([]string{"tool", "--id", "acme-0123abcd"})
	if want := []string{"tool", "--id", "***"}; !slices.Equal(got, want) {
		t.Errorf("Args: got %q, want %q", got, want)
	}
}

func TestNewRejectsBadPatterns(t *testing.T) {
	for _, p := range []string{"(", "", "a*", "^"} {
		if _, err := New([]string{p}); err == nil {
			t.Errorf("New(%q) succeeded, want an error", p)
		} else if !strings.Contains(err.Error(), p) {
			t.Errorf("New(%q): error %q does not name the pattern", p, err)
		}
	}
	if _, err := New(nil); err != nil {
		t.Errorf("New(nil): %v", err)
	}
	// The error is one line, even for a pattern with a newline in it.
	if _, err := New([]string{"(\n"}); err == nil || strings.Contains(err.Error(), "\n") {
		t.Errorf(`New("(\n"): error %q, want one line`, err)
	}
}

func TestReason(t *testing.T) {
	long := strings.Repeat("é", 300)
	tests := []struct {
		name, in, want string
	}{
		{"short", "default: exit 1 may be transient", "default: exit 1 may be transient"},
		{"escapes", "stderr matched: \x1b[31mred\x1b[0m\tend\n", `stderr matched: \x1b[31mred\x1b[0m end\n`},
		{"invalid utf-8", "bad \xff byte", "bad \uFFFD byte"},
		{"cut", long, strings.Repeat("é", MaxReason-1) + "…"},
		{"exactly the limit", long[:2*MaxReason], long[:2*MaxReason]},
		{"redacted before the cut", strings.Repeat("x", 180) + " password=hunter2hunter2", strings.Repeat("x", 180) + " password=***"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := (*Redactor)(nil).Reason(tt.in)
			if got != tt.want {
				t.Errorf("Reason(%q)\n got %q\nwant %q", tt.in, got, tt.want)
			}
			if n := utf8.RuneCountInString(got); n > MaxReason {
				t.Errorf("Reason: %d characters, want at most %d", n, MaxReason)
			}
		})
	}
}

// TestSecretsNeverShow feeds real-looking secrets through every rule in
// argument and in text form and checks that none of them survives.
func TestSecretsNeverShow(t *testing.T) {
	secrets := []string{
		"hunter2-Pa55w0rd!", "ghp_R3alLook1ngT0kenValue000000000000", "AKIAIOSFODNN7EXAMPLE",
		"wJalrXUtnFEMI/K7MDENG/bPxRfiCYEXAMPLEKEY", "c2VjcmV0OnNlY3JldA==",
	}
	forms := []func(s string) []string{
		func(s string) []string { return []string{"tool", "--password", s} },
		func(s string) []string { return []string{"tool", "--password=" + s} },
		func(s string) []string { return []string{"tool", "--api-key", s} },
		func(s string) []string { return []string{"tool", "--secret=" + s} },
		func(s string) []string { return []string{"tool", "-token", s} },
		func(s string) []string { return []string{"curl", "-u", "me:" + s, "https://example.com/"} },
		func(s string) []string { return []string{"curl", "https://me:" + s + "@example.com/x"} },
		func(s string) []string { return []string{"curl", "https://" + userPart(s) + "@example.com/x"} },
		func(s string) []string { return []string{"curl", "-H", "Authorization: Bearer " + s} },
		func(s string) []string { return []string{"curl", "-H", "Cookie: sid=" + s} },
		func(s string) []string { return []string{"curl", "-H", "X-Api-Key: " + s} },
		func(s string) []string { return []string{"env", "AWS_SECRET_ACCESS_KEY=" + s, "aws"} },
		func(s string) []string { return []string{"env", "MY_APP_PASSWORD=" + s, "app"} },
		func(s string) []string { return []string{"curl", "https://h/?token=" + s} },
		func(s string) []string { return []string{"mysql", "-p" + s} },
		func(s string) []string { return []string{"sh", "-c", "deploy --token '" + s + "' && echo ok"} },
		func(s string) []string {
			return []string{"sh", "-c", "curl -H 'Authorization: token " + s + "' https://h/"}
		},
		func(s string) []string { return []string{"sh", "-c", `echo '{"password": "` + s + `"}' | app`} },
	}
	for _, secret := range secrets {
		for i, form := range forms {
			argv := form(secret)
			s := secret
			if strings.Contains(strings.Join(argv, " "), userPart(s)+"@") {
				s = userPart(s)
			}
			got := strings.Join((*Redactor)(nil).Args(argv), "\x00")
			if strings.Contains(got, s) {
				t.Errorf("form %d: Args(%q) = %q shows the secret", i, argv, got)
			}
			if text := (*Redactor)(nil).Reason(strings.Join(argv, " ")); strings.Contains(text, s) {
				t.Errorf("form %d: Reason(%q) = %q shows the secret", i, strings.Join(argv, " "), text)
			}
		}
	}
}

// userPart returns the part of s before its first /: a bare user name in a
// URL with a / in it cannot be told from a path (https://host/a@b).
func userPart(s string) string {
	s, _, _ = strings.Cut(s, "/")
	return s
}

// FuzzText checks that no input makes redaction panic, that Reason keeps
// its bound, and that a value given after --password never survives.
func FuzzText(f *testing.F) {
	for _, s := range []string{
		"", ":", "://", "://@", "\"", `{"token":"`, `"a":"b`, "a=", "?token=", "x-api-key:",
		"PASSWORD='a b", "eyJ.eyJ.", "curl -u", "mysql -p", "sh -c", "http://h:1/@x", "\xff\x1b[0m",
	} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		r := (*Redactor)(nil)
		_ = r.Text(s)
		_ = r.Args(strings.Fields(s))
		if n := utf8.RuneCountInString(r.Reason(s)); n > MaxReason {
			t.Fatalf("Reason: %d characters", n)
		}
		if strings.ContainsAny(s, " \t\n\r\v\f'\"") || s == "" {
			return
		}
		got := r.Args([]string{"tool", "--password", s})
		if got[2] != Mask {
			t.Fatalf("Args(--password %q) = %q", s, got)
		}
	})
}
