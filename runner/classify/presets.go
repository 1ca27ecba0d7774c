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
}

// Presets returns every built-in preset, sorted by name.
func Presets() []Preset {
	const (
		curlRetry  = "curl(1) --retry; src/tool_operate.c, retrycheck()"
		curlExit   = "curl(1) EXIT CODES"
		curlFail   = `lib/http.c: "The requested URL returned error: %d"; curl(1) --fail`
		gitRemote  = "git: remote-curl.c and http.c; the messages are libcurl's (curl(1) EXIT CODES)"
		sshConnect = `OpenSSH sshconnect.c: "ssh: connect to host %s port %s: %s"; ssh(1) EXIT STATUS`
		aptFetch   = "apt: apt-pkg/contrib/fileutl.cc, methods/connect.cc, apt-pkg/acquire-item.cc"
		goNet      = "Go: net and net/http error strings; cmd/go/internal/modfetch/proxy.go"
		k8sReasons = `kubectl/pkg/cmd/util/helpers.go "Error from server (%s): %s"; apimachinery pkg/api/errors`
	)
	ps := []Preset{
		{Name: "curl", Summary: "curl's own --retry rules, with HTTP errors under -f/--fail", Rules: []PresetRule{
			{RetryOn, "5,6,28", "could not resolve proxy (5) or host (6); operation timed out (28): what curl --retry calls a timeout", curlRetry},
			{RetryOn, "7", "failed to connect (what --retry-connrefused adds)", curlRetry + "; curl(1) --retry-connrefused"},
			{RetryOn, "12", "FTP server did not connect back in time", curlRetry},
			{RetryOn, "52,55,56", "empty reply, send or receive failure: the connection broke", curlExit},
			{RetryIf, `^curl: \(22\) The requested URL returned error: (408|429|500|502|503|504)\b`, "HTTP 408, 429, 500, 502, 503, 504 under --fail: the codes curl --retry treats as transient", curlFail + "; " + curlRetry},
		}},
		{Name: "git", Summary: "git fetch, clone, push, ls-remote over HTTP(S) or SSH; a held index.lock", Rules: []PresetRule{
			{StopIf, `(?i)(Authentication failed for|Permission denied \(|could not read (Username|Password)|Repository not found|repository '.*' not found|Host key verification failed)`, "credentials or a missing repository: another attempt fails the same way", "git: http.c, credential.c, remote-curl.c; OpenSSH sshconnect.c"},
			{RetryIf, `unable to access '.*': (Could not resolve (host|proxy)|Failed to connect to|Connection timed out|Operation timed out|Recv failure|Send failure|Empty reply from server|The requested URL returned error: (408|429|500|502|503|504)\b)`, "network failure or a transient HTTP status reported through libcurl", gitRemote},
			{RetryIf, `(RPC failed; (curl (18|28|52|55|56)|HTTP (408|429|500|502|503|504))|the remote end hung up unexpectedly|early EOF|unexpected disconnect while reading sideband packet)`, "the connection broke during the transfer", "git: remote-curl.c \"RPC failed; %s\", pkt-line.c, fetch-pack.c"},
			{RetryIf, `^ssh: (connect to host .* port .*: (Connection refused|Connection timed out|No route to host|Network is unreachable)|Could not resolve hostname .*: Temporary failure)`, "the SSH transport could not connect", sshConnect},
			{RetryIf, `Unable to create '.*\.lock': File exists`, "another git process holds the lock; it goes away when that process ends", "git: lockfile.c, unable_to_lock_message()"},
		}},
		{Name: "http", Summary: "any tool that prints an HTTP status line or reason phrase", Rules: []PresetRule{
			{RetryIf, `(?i)^[\t <]*HTTP/[0-9.]+ (408|429|500|502|503|504)\b`, "a status line with a transient status (as curl -i/-D/-v and wget -S print it)", "RFC 9110 sections 15.5.9, 15.6; RFC 6585 section 4 (429)"},
			{RetryIf, `(?i)\b(408 Request Time-?out|429 Too Many Requests|500 Internal Server Error|502 Bad Gateway|503 Service Unavailable|504 Gateway Time-?out)\b`, "a transient status with its reason phrase", "RFC 9110 section 15 reason phrases; RFC 6585 section 4"},
		}},
		{Name: "apt", Summary: "apt-get and apt: a held dpkg lock, mirrors and resolvers that fail for a while", Rules: []PresetRule{
			{StopIf, `(Unable to locate package|has no installation candidate|Unable to correct problems, you have held broken packages)`, "the package set is wrong: retrying cannot fix it", "apt: apt-private/private-cacheset.cc, apt-pkg/algorithms.cc"},
			{RetryIf, `Could not get lock .*(It is held by process|Resource temporarily unavailable)`, "another apt or dpkg is running; the lock frees when it ends", "apt: apt-pkg/contrib/fileutl.cc GetLock(): \"Could not get lock %s. It is held by process %d\""},
			{RetryIf, `(Temporary failure resolving|Could not connect to .*(timed out|refused)|Unable to connect to|Connection failed|Connection timed out|Hash Sum mismatch|(?i:Failed to fetch .* (408|429|500|502|503|504)\b))`, "a resolver, mirror or proxy failed, or a mirror is mid-sync", aptFetch},
		}},
		{Name: "ssh", Summary: "ssh, scp and sftp connection failures (exit 255), not the remote command's", Rules: []PresetRule{
			{StopIf, `(Permission denied \(|Host key verification failed|REMOTE HOST IDENTIFICATION HAS CHANGED|Too many authentication failures)`, "authentication or host key failure: retrying cannot fix it", "OpenSSH sshconnect2.c, sshconnect.c; ssh(1) AUTHENTICATION"},
			{RetryIf, `(ssh: connect to host .* port .*: (Connection refused|Connection timed out|No route to host|Network is unreachable|Operation timed out)|ssh: Could not resolve hostname .*: Temporary failure|kex_exchange_identification: (Connection closed by remote host|read: Connection reset by peer)|Connection (closed by|reset by) .* port \d+|Connection timed out during banner exchange)`, "the connection could not be made or broke before authentication", sshConnect + "; OpenSSH kex.c kex_exchange_identification()"},
		}},
		{Name: "npm", Summary: "npm install, ci, view, publish: network errors and transient registry statuses", Rules: []PresetRule{
			{StopIf, `^npm (ERR!|error) code (E401|E403|E404|ETARGET|ERESOLVE|EINTEGRITY)\b`, "authentication, a missing package or version, or a dependency conflict", "npm: lib/utils/error-message.js; npm-registry-fetch errors.js (E + HTTP status)"},
			{RetryIf, `^npm (ERR!|error) code (E408|E429|E500|E502|E503|E504|ECONNRESET|ECONNREFUSED|ETIMEDOUT|ESOCKETTIMEDOUT|EAI_AGAIN|EPIPE)\b`, "a transient registry status or a network error code", "npm: npm-registry-fetch errors.js (HttpErrorGeneral: code E<status>); Node.js errno codes"},
			{RetryIf, `^npm (ERR!|error) (network|errno (ECONNRESET|ETIMEDOUT|EAI_AGAIN))\b`, "npm's own \"network\" error class", "npm: lib/utils/error-message.js (case 'ECONNRESET', 'ETIMEDOUT', network)"},
		}},
		{Name: "go", Summary: "go mod download, go get, go build and go install fetching modules", Rules: []PresetRule{
			{StopIf, `(SECURITY ERROR|checksum mismatch|verifying .*: .*: (404|410)|unknown revision|invalid version|no matching versions for query)`, "a checksum or version problem: retrying cannot fix it", "cmd/go/internal/modfetch/fetch.go (checksum mismatch, SECURITY ERROR); modfetch/proxy.go"},
			{RetryIf, `^go: .*(reading https?://.*: (408|429|500|502|503|504) |dial tcp .*: (connect: connection refused|i/o timeout|connect: connection timed out)|(lookup .*: (i/o timeout|server misbehaving|Temporary failure))|connection reset by peer|TLS handshake timeout|unexpected EOF|net/http: request canceled)`, "the module proxy or the network failed for a while", goNet},
		}},
		{Name: "docker", Summary: "docker pull, push, build and login: registry limits and network failures", Rules: []PresetRule{
			{StopIf, `(pull access denied|manifest unknown|unauthorized: |denied: requested access to the resource is denied|repository does not exist)`, "the image or the credentials are wrong", "Docker CLI and distribution/registry API error codes (DENIED, MANIFEST_UNKNOWN, UNAUTHORIZED)"},
			{RetryIf, `(toomanyrequests|(429 Too Many Requests|50[234] [A-Z])|Client\.Timeout exceeded|TLS handshake timeout|i/o timeout|connection reset by peer|unexpected EOF|Cannot connect to the Docker daemon at .* Is the docker daemon running\?)`, "a registry rate limit, a transient status, the network, or a daemon still starting", "Docker Hub rate limit docs (toomanyrequests); docker/cli client errors; Go net/http"},
		}},
		{Name: "kubectl", Summary: "kubectl against an API server that is busy, restarting or unreachable", Rules: []PresetRule{
			{StopIf, `(Error from server \((Forbidden|NotFound|BadRequest|Invalid|AlreadyExists|MethodNotAllowed|Gone|UnsupportedMediaType)\)|error: You must be logged in to the server)`, "the request itself or the credentials are wrong", k8sReasons},
			{RetryIf, `(Error from server \((ServiceUnavailable|InternalError|Timeout|ServerTimeout|TooManyRequests|Conflict)\)|The connection to the server .* was refused|Unable to connect to the server: |etcdserver: (request timed out|leader changed)|the object has been modified; please apply your changes to the latest version and try again|the server is currently unable to handle the request|the server has received too many requests|TLS handshake timeout)`, "the API server is unavailable, overloaded or restarting, or an optimistic-concurrency conflict", k8sReasons + "; kubectl/pkg/cmd/util/helpers.go (connection refused)"},
		}},
		{Name: "wget", Summary: "GNU wget: network failures and transient server errors", Rules: []PresetRule{
			{RetryOn, "4", "network failure", "wget(1) EXIT STATUS"},
			{RetryIf, `ERROR (408|429|500|502|503|504)\b`, "server error response with a transient status (exit 8)", "wget(1) EXIT STATUS (8: server issued an error response); src/http.c \"ERROR %d\""},
		}},
		{Name: "rsync", Summary: "rsync: socket, protocol and timeout failures", Rules: []PresetRule{
			{RetryOn, "10,12,30,35", "socket I/O (10), protocol data stream (12), timeout in data send/receive (30), timeout waiting for daemon connection (35)", "rsync(1) EXIT VALUES"},
		}},
		{Name: "tempfail", Summary: "programs that follow sysexits.h: only EX_TEMPFAIL is retried", Rules: []PresetRule{
			{RetryOn, "75", "EX_TEMPFAIL: a temporary failure; the user is invited to retry", "sysexits.h(3head)"},
		}},
	}
	slices.SortFunc(ps, func(a, b Preset) int { return strings.Compare(a.Name, b.Name) })
	return ps
}

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
		case RetryIf, StopIf:
			pat, err := CompilePattern(rule.Value)
			if err != nil {
				return fmt.Errorf("%s: %s: %w", from, rule.Kind, err)
			}
			pat.From = from
			if rule.Kind == RetryIf {
				r.RetryIf = append(r.RetryIf, pat)
			} else {
				r.StopIf = append(r.StopIf, pat)
			}
		}
	}
	return nil
}
