package classify

import (
	"fmt"
	"slices"
	"strings"
)

// RuleKind names the flag a preset rule stands for.
type RuleKind string

// The flags a preset rule can stand for.
const (
	RetryOn RuleKind = "--retry-on"
	StopOn  RuleKind = "--stop-on"
	RetryIf RuleKind = "--retry-if"
	StopIf  RuleKind = "--stop-if"
	FailIf  RuleKind = "--fail-if"
)

// PresetRule is one rule of a preset: what a flag would say, why, and where
// the code or message comes from.
type PresetRule struct {
	Kind   RuleKind
	Value  string // a code list or a regular expression
	Why    string
	Source string // the tool's manual page, documentation or source file
}

// Preset is a named, built-in set of rules for a common tool.
type Preset struct {
	Name    string
	Summary string
	Rules   []PresetRule
	// Blind says when the preset cannot see its tool's messages, and the
	// flags that keep them visible.
	Blind string

	// quiet finds, on the command line of tool, a flag that hides the
	// messages the rules read; nil when the tool has none.
	quiet func(tool string, args []string, match StreamChoice) *Quiet
}

// ReadsMessages reports whether the preset reads its tool's messages (it
// has --retry-if, --stop-if or --fail-if rules): each attempt then runs
// with English messages (LC_MESSAGES=C).
func (p Preset) ReadsMessages() bool {
	for _, r := range p.Rules {
		switch r.Kind {
		case RetryIf, StopIf, FailIf:
			return true
		}
	}
	return false
}

// Presets returns every built-in preset, sorted by name.
func Presets() []Preset {
	ps := []Preset{
		{Name: "curl", Summary: "curl's own --retry rules, with HTTP errors under -f/--fail", Rules: []PresetRule{
			{RetryOn, "5,6,28", "could not resolve proxy (5) or host (6); operation timed out (28): what curl --retry calls a timeout", curlRetry},
			{RetryOn, "7", "failed to connect (what --retry-connrefused adds)", curlRetry + "; curl(1) --retry-connrefused"},
			{RetryOn, "12", "FTP server did not connect back in time", curlRetry},
			{RetryOn, "18,52,55,56,92", "partial file, empty reply, send or receive failure, HTTP/2 stream not closed cleanly: the connection broke", curlExit},
			{StopOn, "3,60,67", "malformed URL (3), peer certificate not trusted (60), login denied (67)", curlExit},
			{RetryIf, `^curl: \(22\) The requested URL returned error: (408|429|500|502|503|504)\b`, "HTTP 408, 429, 500, 502, 503, 504 under --fail: the codes curl --retry treats as transient", curlFail + "; " + curlRetry},
			{StopIf, `^curl: \(22\) The requested URL returned error: 4(0[0-79]|1[0-9]|2[0-8]|[3-9][0-9])\b`, "any other 4xx under --fail: the request itself is wrong", curlFail},
		}, Blind: "curl -s without -S prints no error: use -sS (or -fsS). -i, -I and -D - write the response headers to stdout: " +
			"add --match both to read a 503's status line or Retry-After there, or send the headers to stderr with -D /dev/stderr", quiet: curlQuiet},
		{Name: "git", Summary: "git clone, fetch, pull, push, ls-remote and submodule over HTTP(S), SSH, git:// and local paths; a held index.lock", Rules: []PresetRule{
			{StopIf, `(Authentication failed for|could not read (Username|Password)|Permission denied \(|Host key verification failed)`,
				"credentials that the server refused or that git could not ask for: another attempt fails the same way", "git: http.c, credential.c; OpenSSH sshconnect.c, sshconnect2.c"},
			{StopIf, `([Rr]epository not found|repository '.*' (not found|does not exist)|access denied or repository not exported|does not appear to be a git repository)`,
				"a missing repository: another attempt fails the same way", "git: remote-curl.c, daemon.c, connect.c, transport.c; GitHub's and GitLab's \"Repository not found\""},
			{StopIf, `(git-(upload|receive)-pack'?: (command )?not found|server certificate verification failed|SSL certificate problem)`,
				"no git on the server's side, or a certificate git does not trust", "git: connect.c; libcurl's TLS errors (GnuTLS, OpenSSL)"},
			{RetryIf, gitHTTP, "network failure or a transient HTTP status reported through libcurl", gitRemote},
			{RetryIf, `(RPC failed; (curl (16|18|28|52|55|56|92)|HTTP (408|429|500|502|503|504))|the remote end hung up unexpectedly|early EOF|unexpected disconnect while reading sideband packet)`, "the connection broke during the transfer", "git: remote-curl.c \"RPC failed; %s\", pkt-line.c, fetch-pack.c"},
			{RetryIf, `(errno=(Connection refused|Connection timed out|Connection reset by peer|No route to host|Network is unreachable)|[Uu]nable to look up .* \(port .*\) \(Temporary failure)`, "git:// could not connect to the daemon", `git: connect.c, git_tcp_connect_sock(): "unable to connect to %s:\n%s", "errno=%s"`},
			{RetryIf, sshNet, "the SSH transport could not connect, or the connection broke before authentication", sshConnect},
			{RetryIf, `^fatal: Could not read from remote repository\.$`, "the connection closed before the server said why (a git daemon or SSH server that dropped it); a server that refuses for good says so on a line the stop rules read first", "git: connect.c, transport.c (die_initial_contact)"},
			{RetryIf, `Unable to create '.*\.lock': File exists`, "another git process holds the lock; it goes away when that process ends", "git: lockfile.c, unable_to_lock_message()"},
		}, Blind: "git prints its errors whatever -q says; only a redirected stderr (2>/dev/null) hides them"},
		{Name: "http", Summary: "any tool that prints an HTTP status line or reason phrase", Rules: []PresetRule{
			{RetryIf, `(?i)^[\t <]*HTTP/[0-9.]+ (408|429|500|502|503|504)\b`, "a status line with a transient status (as curl -i/-D/-v and wget -S print it)", "RFC 9110 sections 15.5.9, 15.6; RFC 6585 section 4 (429)"},
			{RetryIf, `(?i)\b(408 Request Time-?out|429 Too Many Requests|500 Internal Server Error|502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out)\b`, "a transient status with its reason phrase", "RFC 9110 section 15 reason phrases; RFC 6585 section 4"},
		}, Blind: "status lines that curl -i or -D - print go to stdout: add --match both"},
		{Name: "apt", Summary: "apt-get and apt: a held dpkg lock, mirrors and resolvers that fail for a while, an update that failed with exit 0", Rules: []PresetRule{
			{StopIf, `(Unable to locate package|has no installation candidate|Unable to correct problems, you have held broken packages)`, "the package set is wrong: retrying cannot fix it", "apt: apt-private/private-cacheset.cc, apt-pkg/algorithms.cc"},
			{StopIf, `(NO_PUBKEY|The following signatures were invalid|The following signatures couldn't be verified|is not signed|Unable to find expected entry)`, "a repository's signature or Release file is wrong: the update fails the same way (with --fail-if: exit 1 at once)", "apt: apt-pkg/acquire-item.cc (signature and Release checks), methods/gpgv.cc"},
			{RetryIf, `Could not get lock .*(It is held by process|Resource temporarily unavailable)`, "another apt or dpkg is running; the lock frees when it ends", "apt: apt-pkg/contrib/fileutl.cc GetLock(): \"Could not get lock %s. It is held by process %d\""},
			{RetryIf, `(Temporary failure resolving|Could not connect to .*(timed out|refused)|Unable to connect to|Connection failed)`, "a resolver, mirror or proxy could not be reached", aptFetch},
			{RetryIf, `(Connection timed out|Hash Sum mismatch|(?i:Failed to fetch .* (408|429|500|502|503|504)\b))`, "a mirror timed out, answered a transient status, or is mid-sync", aptFetch},
			{FailIf, `^[WE]: (Failed to fetch |Some index files failed to download)`, "apt-get update exits 0 when mirrors failed and it kept the old lists: a failure, retried", "apt: apt-pkg/update.cc AcquireUpdate() (\"Failed to fetch %s  %s\", \"Some index files failed to download\"); apt-private/private-download.cc AcquireRun()"},
		}, Blind: "apt-get -qq still prints its errors; 2>/dev/null hides them"},
		{Name: "ssh", Summary: "ssh, scp and sftp connection failures (exit 255), not the remote command's", Rules: []PresetRule{
			{StopIf, `(Permission denied \(|Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|Too many authentication failures)`, "authentication or host key failure: retrying cannot fix it", "OpenSSH sshconnect2.c, sshconnect.c; ssh(1) AUTHENTICATION"},
			{RetryIf, sshNet, "the connection could not be made or broke before authentication", sshConnect},
		}, Blind: "-q (ssh, scp, sftp) and -o LogLevel=QUIET hide every message: drop them; ssh -E FILE writes them to FILE", quiet: sshQuiet},
		{Name: "npm", Summary: "npm install, ci, view, publish: network errors and transient registry statuses", Rules: []PresetRule{
			{StopIf, `^npm (ERR!|error) code (E401|E403|E404|ETARGET|ERESOLVE|EINTEGRITY)\b`, "authentication, a missing package or version, or a dependency conflict", "npm: lib/utils/error-message.js; npm-registry-fetch errors.js (E + HTTP status)"},
			{RetryIf, `^npm (ERR!|error) code (E408|E429|E500|E502|E503|E504|ECONNRESET|ECONNREFUSED|ETIMEDOUT|ESOCKETTIMEDOUT|EAI_AGAIN|EPIPE)\b`, "a transient registry status or a network error code", "npm: npm-registry-fetch errors.js (HttpErrorGeneral: code E<status>); Node.js errno codes"},
			{RetryIf, `^npm (ERR!|error) (network|errno (ECONNRESET|ETIMEDOUT|EAI_AGAIN))\b`, "npm's own \"network\" error class", "npm: lib/utils/error-message.js (case 'ECONNRESET', 'ETIMEDOUT', network)"},
		}, Blind: "npm --silent (-s) and --loglevel silent print no error lines: use --loglevel error to keep only them"},
		{Name: "go", Summary: "go build, run, test, vet, get, install, list and mod download fetching modules through a proxy or a VCS", Rules: []PresetRule{
			{StopIf, `(SECURITY ERROR|checksum mismatch|verifying .*: .*: (404|410)|reading https?://\S+: (404|410) )`, "a checksum mismatch, or a module or version the proxy does not have: retrying cannot fix it", goFetch},
			{StopIf, `(unknown revision|invalid version|no matching versions for query)`, "a version that does not exist", "cmd/go/internal/modfetch/coderepo.go, cmd/go/internal/modload/query.go"},
			{StopIf, `(no required module provides package|malformed module path)`, "an import or a module path that no module provides", "cmd/go/internal/modload/import.go, golang.org/x/mod/module"},
			{RetryIf, `(reading https?://\S+: (408|429|500|502|503|504) |Get "[^"]*": .*(connect: (connection refused|connection timed out|network is unreachable|no route to host)|i/o timeout|server misbehaving|Temporary failure in name resolution|connection reset by peer|TLS handshake timeout|unexpected EOF|net/http: request canceled))`,
				"the module proxy, the checksum database or the network failed for a while; on a go: line or, for go build, run, test and vet, on the importing file's line", goNet},
			{RetryIf, gitHTTP, "GOPROXY=direct or a private module: the git that go runs could not reach the server", "cmd/go/internal/modfetch/codehost/git.go runs git; " + gitRemote},
		}, Blind: "go mod download -json and go list -json report errors on stdout: add --match both", quiet: goQuiet},
		{Name: "docker", Summary: "docker pull, push, build and login: registry limits and network failures", Rules: []PresetRule{
			{StopIf, `(pull access denied|manifest unknown|unauthorized: |denied: requested access to the resource is denied|repository does not exist)`, "the image or the credentials are wrong", "Docker CLI and distribution/registry API error codes (DENIED, MANIFEST_UNKNOWN, UNAUTHORIZED)"},
			{RetryIf, `(toomanyrequests|(429 Too Many Requests|50[234] [A-Z])|Client\.Timeout exceeded|TLS handshake timeout|i/o timeout|connection reset by peer|unexpected EOF|Cannot connect to the Docker daemon at .* Is the docker daemon running\?)`, "a registry rate limit, a transient status, the network, or a daemon still starting", "Docker Hub rate limit docs (toomanyrequests); docker/cli client errors; Go net/http"},
		}, Blind: "docker pull -q still prints its errors; a 2>/dev/null hides them"},
		{Name: "kubectl", Summary: "kubectl against an API server that is busy, restarting or unreachable", Rules: []PresetRule{
			{StopIf, `(Error from server \((Forbidden|NotFound|BadRequest|Invalid|AlreadyExists|MethodNotAllowed|Gone|UnsupportedMediaType)\)|error: You must be logged in to the server)`, "the request itself or the credentials are wrong", k8sReasons},
			{RetryIf, `(Error from server \((ServiceUnavailable|InternalError|Timeout|ServerTimeout|TooManyRequests|Conflict)\)|The connection to the server .* was refused|Unable to connect to the server: |etcdserver: (request timed out|leader changed)|the object has been modified; please apply your changes to the latest version and try again|the server is currently unable to handle the request|the server has received too many requests|TLS handshake timeout)`, "the API server is unavailable, overloaded or restarting, or an optimistic-concurrency conflict", k8sReasons + "; kubectl/pkg/cmd/util/helpers.go (connection refused)"},
		}, Blind: "kubectl prints its errors on stderr whatever -o and -v say; a 2>/dev/null hides them"},
		{Name: "wget", Summary: "GNU wget: network failures and transient server errors, in its verbose and -nv forms", Rules: []PresetRule{
			{RetryOn, "4", "network failure (refused, reset, timed out, name not resolved), and a 504, which wget counts as one (\"Giving up.\")", "wget(1) EXIT STATUS"},
			{StopOn, "2,5,6", "a bad command line (2), an SSL verification failure (5), a username/password authentication failure (6)", "wget(1) EXIT STATUS"},
			{RetryIf, `ERROR (408|429|500|502|503|504)\b`, "server error response with a transient status (exit 8)", "wget(1) EXIT STATUS (8: server issued an error response); src/http.c \"%s ERROR %d: %s.\""},
			{StopIf, `ERROR 4(0[0-79]|1[0-9]|2[0-8]|[3-9][0-9]): `, "any other 4xx: the request itself is wrong", `wget: src/http.c "%s ERROR %d: %s."`},
		}, Blind: "wget -q prints nothing and -o FILE writes the messages to FILE: use -nv, which prints only the errors and one line per file", quiet: wgetQuiet},
		{Name: "tempfail", Summary: "programs that follow sysexits.h: only EX_TEMPFAIL is retried", Rules: []PresetRule{
			{RetryOn, "75", "EX_TEMPFAIL: a temporary failure; the user is invited to retry", "sysexits.h(3head)"},
		}, Blind: "reads exit codes only"},
	}
	ps = append(ps, deployPresets()...)
	slices.SortFunc(ps, func(a, b Preset) int { return strings.Compare(a.Name, b.Name) })
	return ps
}

// The sources and expressions that several presets share.
const (
	curlRetry  = "curl(1) --retry; src/tool_operate.c, retrycheck()"
	curlExit   = "curl(1) EXIT CODES"
	curlFail   = `lib/http.c: "The requested URL returned error: %d"; curl(1) --fail`
	gitRemote  = "git: remote-curl.c and http.c; the messages are libcurl's (curl(1) EXIT CODES, lib/strerror.c)"
	sshConnect = `OpenSSH sshconnect.c: "ssh: connect to host %s port %s: %s"; kex.c kex_exchange_identification(); packet.c sshpkt_fatal(); ssh(1) EXIT STATUS`
	aptFetch   = "apt: apt-pkg/contrib/fileutl.cc, methods/connect.cc, apt-pkg/acquire-item.cc"
	goFetch    = "cmd/go/internal/modfetch/fetch.go (checksum mismatch, SECURITY ERROR); cmd/go/internal/modfetch/proxy.go; cmd/go/internal/web/api.go (\"reading %s: %v\")"
	goNet      = `cmd/go/internal/web/api.go ("reading %s: %v"); net/http client errors (Get "%s": %v); net's dial and lookup errors`
	k8sReasons = `kubectl/pkg/cmd/util/helpers.go "Error from server (%s): %s"; apimachinery pkg/api/errors`

	// gitHTTP is git's report of a libcurl failure: fatal: unable to
	// access 'URL/': MESSAGE.
	gitHTTP = `unable to access '.*': (Could not resolve (host|proxy)|Failed to connect to|Couldn't connect to server|Connection timed out|Operation timed out|Recv failure|Send failure|Empty reply from server|transfer closed with outstanding read data|HTTP/2 stream \d+ was not closed cleanly|(GnuTLS recv error|OpenSSL SSL_read)|The requested URL returned error: (408|429|500|502|503|504)\b)`
	// sshNet is OpenSSH's report of a connection that could not be made
	// or broke before authentication.
	sshNet = `(ssh: connect to host .* port .*: (Connection refused|Connection timed out|No route to host|Network is unreachable|Operation timed out)|ssh: Could not resolve hostname .*: Temporary failure|kex_exchange_identification: (Connection closed by remote host|read: Connection reset by peer)|Connection (closed by|reset by) .* port \d+|Connection timed out during banner exchange)`
)

// LookupPreset returns the preset called name. The error lists the names
// there are.
func LookupPreset(name string) (Preset, error) {
	ps := Presets()
	names := make([]string, len(ps))
	for i, p := range ps {
		if p.Name == name {
			return p, nil
		}
		names[i] = p.Name
	}
	return Preset{}, fmt.Errorf("unknown preset %q: want one of %s", name, strings.Join(names, ", "))
}

// AddPreset appends the rules of p to r, each marked as coming from it.
func (r *Rules) AddPreset(p Preset) error {
	from := "preset " + p.Name
	for _, rule := range p.Rules {
		switch rule.Kind {
		case RetryOn, StopOn:
			c, err := ParseCodes(rule.Value)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", from, rule.Kind, err)
			}
			if rule.Kind == RetryOn {
				r.RetryOn = append(r.RetryOn, CodeRule{Codes: c, From: from})
			} else {
				r.StopOn = append(r.StopOn, CodeRule{Codes: c, From: from})
			}
		case RetryIf, StopIf, FailIf:
			pat := presetTable.Known(rule.Value) // TestPresetsCompile
			pat.From = from
			switch rule.Kind {
			case RetryIf:
				r.RetryIf = append(r.RetryIf, pat)
			case StopIf:
				r.StopIf = append(r.StopIf, pat)
			default:
				r.FailIf = append(r.FailIf, pat)
			}
		}
	}
	r.presets = append(r.presets, p)
	return nil
}

// Expressions returns every expression of the presets' rules and the
// Retry-After hint's, sorted and without repeats: the ones presetTable
// holds reduced to their literal strings, made at build time (go
// generate).
func Expressions() []string {
	exprs := []string{retryAfter}
	for _, p := range Presets() {
		for _, r := range p.Rules {
			if r.Kind != RetryOn && r.Kind != StopOn { // exit codes
				exprs = append(exprs, r.Value)
			}
		}
	}
	slices.Sort(exprs)
	return slices.Compact(exprs)
}
