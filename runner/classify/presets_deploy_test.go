package classify

import (
	"io"
	"strings"
	"testing"

	"github.com/b0a38808/retry/exitcodes"
	"github.com/b0a38808/retry/runner/match"
)

// classifyWith runs one attempt's stderr and exit code through the rules of
// the named presets.
func classifyWith(t *testing.T, presets string, code int, stderr string) Decision {
	t.Helper()
	var r Rules
	for _, name := range strings.Split(presets, ",") {
		p, err := LookupPreset(name)
		if err != nil {
			t.Fatal(err)
		}
		if err := r.AddPreset(p); err != nil {
			t.Fatal(err)
		}
	}
	var out match.Output
	if m := r.NewMatcher(nil); m != nil {
		w := m.Writer("stderr")
		io.WriteString(w, stderr)
		w.Close()
		out = m.Output()
	}
	return r.Classify(Facts{Exit: exitcodes.Exit{ExitCode: code}, Output: out})
}

// TestDeployPresets replays what the tools print. terraform and helm have
// no Debian package, so their lines are quoted from their sources (named
// per case); the others were captured from the real tools against local
// servers, which the scripts in testscript/testdata run again.
func TestDeployPresets(t *testing.T) {
	const (
		retried = "retryable"
		stopped = "permanent: stderr matched --stop-if"
		stopOn  = "permanent: exit"
		notList = "permanent: not listed"
	)
	for _, tc := range []struct {
		name, preset string
		code         int
		stderr, want string
	}{
		// internal/command/clistate/state.go, LockErrorMessage; as
		// terraform 1.11 prints it with -no-color and in colour.
		{"terraform lock", "terraform", 1, "\nError: Error acquiring the state lock\n\nError message: resource temporarily unavailable\n", retried},
		{"terraform lock in colour", "terraform", 1, "\x1b[31m│\x1b[0m \x1b[0m\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mError acquiring the state lock\x1b[0m\n", retried},
		// meta_backend.go: "Error locking state: %s" around the same error.
		{"terraform backend lock", "terraform", 1, "Error: Error locking state: Error acquiring the state lock: ConditionalCheckFailedException: The conditional request failed\n", retried},
		// internal/getproviders/errors.go ErrHostUnreachable and
		// ErrQueryFailed; registry_client.go maxRetryErrorHandler.
		{"terraform registry unreachable", "terraform", 1, "Error: Failed to query available provider packages\n\nCould not retrieve the list of available versions for provider hashicorp/null: could not connect to registry.terraform.io: failed to request discovery document: Get \"https://registry.terraform.io/.well-known/terraform.json\": dial tcp 127.0.0.1:1: connect: connection refused\n", retried},
		{"terraform registry 503", "terraform", 1, "Could not retrieve the list of available versions for provider hashicorp/null: could not query provider registry for registry.terraform.io/hashicorp/null: the request failed after 2 attempts, please try again later: 503 Service Unavailable returned from registry.terraform.io\n", retried},
		// terraform 1.11 init -json: each diagnostic on one line.
		{"terraform registry json", "terraform", 1, `{"@level":"error","@message":"Error: Failed to query available provider packages","diagnostic":{"severity":"error","summary":"Failed to query available provider packages","detail":"Could not retrieve the list of available versions for provider hashicorp/null: could not connect to registry.terraform.io: failed to request discovery document: Get \"https://registry.terraform.io/.well-known/terraform.json\": Service Unavailable"},"type":"diagnostic"}` + "\n", retried},
		{"terraform registry untrusted", "terraform", 1, "Could not retrieve the list of available versions for provider hashicorp/null: could not connect to registry.example.com: failed to request discovery document: Get \"https://registry.example.com/.well-known/terraform.json\": tls: failed to verify certificate: x509: certificate signed by unknown authority\n", stopped},
		{"terraform registry no such host", "terraform", 1, "hashicorp/null: could not connect to registry.exmaple.com: failed to request discovery document: Get \"https://registry.exmaple.com/.well-known/terraform.json\": dial tcp: lookup registry.exmaple.com on 127.0.0.53:53: no such host\n", stopped},
		// internal/initwd/module_install.go.
		{"terraform module registry", "terraform", 1, "Error: Error accessing remote module registry\n\nFailed to retrieve available versions for module \"vpc\" (main.tf:1) from registry.terraform.io: failed to request discovery document: Get \"https://registry.terraform.io/.well-known/terraform.json\": net/http: TLS handshake timeout.\n", retried},
		// internal/command/init.go fetchPackageFailureCallback.
		{"terraform provider download", "terraform", 1, "Error: Failed to install provider\n\nError while installing hashicorp/null v3.2.1: read tcp 127.0.0.1:5000->127.0.0.1:443: read: connection reset by peer\n", retried},
		{"terraform provider checksum", "terraform", 1, "Error: Failed to install provider\n\nError while installing hashicorp/null v3.2.1: the current package for registry.terraform.io/hashicorp/null 3.2.1 doesn't match any of the checksums previously recorded in the dependency lock file\n", notList},
		// getproviders/errors.go ErrRegistryProviderNotKnown.
		{"terraform no such provider", "terraform", 1, "Error: Failed to query available provider packages\n\nCould not retrieve the list of available versions for provider hashicorp/nope: provider registry registry.terraform.io does not have a provider named registry.terraform.io/hashicorp/nope\n", notList},
		// hashicorp/hcl and internal/configs diagnostics.
		{"terraform unsupported argument", "terraform", 1, "\nError: Unsupported argument\n\n  on main.tf line 3, in output \"o\":\n   3:   bogus = 2\n", stopped},
		{"terraform undeclared", "terraform", 1, "\x1b[31m│\x1b[0m \x1b[0m\x1b[1m\x1b[31mError: \x1b[0m\x1b[0m\x1b[1mReference to undeclared local value\x1b[0m\n", stopped},
		{"terraform not initialised", "terraform", 1, "Error: Missing required provider\n\nThis configuration requires provider registry.terraform.io/hashicorp/null, but that provider isn't available.\n", stopped},

		// pkg/action/action.go errPending, through pkg/cmd/upgrade.go.
		{"helm pending", "helm", 1, "Error: UPGRADE FAILED: another operation (install/upgrade/rollback) is in progress\n", retried},
		// pkg/getter/httpgetter.go; pkg/repo/v1/chartrepo.go.
		{"helm repo 503", "helm", 1, "Error: looks like \"http://127.0.0.1:8879\" is not a valid chart repository or cannot be reached: failed to fetch http://127.0.0.1:8879/index.yaml : 503 Service Unavailable\n", retried},
		{"helm repo 404", "helm", 1, "Error: looks like \"http://127.0.0.1:8879\" is not a valid chart repository or cannot be reached: failed to fetch http://127.0.0.1:8879/index.yaml : 404 Not Found\n", notList},
		// oras-go errcode ErrorResponse, through helm's registry client.
		{"helm oci 429", "helm", 1, "Error: GET \"https://127.0.0.1:5000/v2/charts/web/manifests/1.0.0\": response status code 429: toomanyrequests: rate limit\n", retried},
		// pkg/kube/client.go IsReachable.
		{"helm cluster unreachable", "helm", 1, "Error: INSTALLATION FAILED: Kubernetes cluster unreachable: Get \"https://127.0.0.1:6443/version\": dial tcp 127.0.0.1:6443: connect: connection refused\n", retried},
		{"helm api unavailable", "helm", 1, "Error: UPGRADE FAILED: the server is currently unable to handle the request\n", retried},
		// pkg/repo/v1/error.go, pkg/action/install.go, pkg/cmd/install.go.
		{"helm chart not found", "helm", 1, "Error: INSTALLATION FAILED: chart \"nope\" matching  not found in stable index. (try 'helm repo update'): no chart name found\n", stopped},
		{"helm name in use", "helm", 1, "Error: INSTALLATION FAILED: cannot reuse a name that is still in use\n", stopped},
		{"helm render error", "helm", 1, "Error: INSTALLATION FAILED: template: web/templates/deploy.yaml:3:4: executing \"web/templates/deploy.yaml\" at <fail \"x\">: error calling fail: x\n", notList},

		// aws-cli 1.45 and 2.9 against a local endpoint.
		{"aws slowdown", "aws", 255, "\nAn error occurred (SlowDown) when calling the ListObjectsV2 operation (reached max retries: 0): Please reduce your request rate.\n", retried},
		{"aws throttling", "aws", 254, "\nAn error occurred (ThrottlingException) when calling the ListTables operation (reached max retries: 0): Rate exceeded\n", retried},
		{"aws 503", "aws", 254, "\nAn error occurred (503) when calling the GetCallerIdentity operation (reached max retries: 0): Service Unavailable\n", retried},
		{"aws refused", "aws", 255, "\nCould not connect to the endpoint URL: \"http://127.0.0.1:1/\"\n", retried},
		{"aws read timeout", "aws", 255, "\nRead timeout on endpoint URL: \"http://127.0.0.1:9000/\"\n", retried},
		{"aws invalid token", "aws", 254, "\nAn error occurred (InvalidClientTokenId) when calling the GetCallerIdentity operation: The security token included in the request is invalid.\n", stopped},
		{"aws access denied", "aws", 1, "upload failed: ./f to s3://b/f An error occurred (AccessDenied) when calling the PutObject operation: Access Denied\n", stopped},
		{"aws no credentials", "aws", 253, "\nUnable to locate credentials. You can configure credentials by running \"aws configure\".\n", stopped},

		// pip 23 against a local index.
		{"pip refused", "pip", 1, "WARNING: Retrying (Retry(total=0, connect=None, read=None, redirect=None, status=None)) after connection broken by 'NewConnectionError('<pip._vendor.urllib3.connection.HTTPConnection object at 0x7f>: Failed to establish a new connection: [Errno 111] Connection refused')': /simple/foo/\nERROR: Could not find a version that satisfies the requirement foo (from versions: none)\nERROR: No matching distribution found for foo\n", retried},
		{"pip index 503 with -vv", "pip", 1, "Could not fetch URL http://127.0.0.1:1/simple/foo/: HTTPConnectionPool(host='127.0.0.1', port=1): Max retries exceeded with url: /simple/foo/ (Caused by ResponseError('too many 503 error responses')) - skipping\nERROR: No matching distribution found for foo\n", retried},
		{"pip index 503 blind", "pip", 1, "ERROR: Could not find a version that satisfies the requirement foo (from versions: none)\nERROR: No matching distribution found for foo\n", notList},
		{"pip no such version", "pip", 1, "ERROR: Could not find a version that satisfies the requirement foo==9 (from versions: 1.0)\nERROR: No matching distribution found for foo==9\n", stopped},
		{"pip download 503", "pip", 1, "ERROR: HTTP error 503 while getting http://127.0.0.1:1/foo-1.0-py3-none-any.whl\n", retried},

		// rsync 3.2 against a local daemon.
		{"rsync max connections", "rsync", 5, "@ERROR: max connections (1) reached -- try again later\nrsync error: error starting client-server protocol (code 5) at main.c(1863) [Receiver=3.2.7]\n", retried},
		{"rsync unknown module", "rsync", 5, "@ERROR: Unknown module 'nope'\nrsync error: error starting client-server protocol (code 5) at main.c(1863) [Receiver=3.2.7]\n", stopped},
		{"rsync refused", "rsync", 10, "rsync: [Receiver] failed to connect to 127.0.0.1 (127.0.0.1): Connection refused (111)\nrsync error: error in socket IO (code 10) at clientserver.c(139) [Receiver=3.2.7]\n", retried},
		{"rsync usage", "rsync", 1, "rsync: --nope: unknown option\n", stopOn},
		{"rsync partial", "rsync", 23, "rsync error: some files/attrs were not transferred (see previous errors) (code 23) at main.c(1338) [sender=3.2.7]\n", notList},

		// psql 15 against a local server.
		{"psql refused", "psql", 2, "psql: error: connection to server at \"127.0.0.1\", port 1 failed: Connection refused\n\tIs the server running on that host and accepting TCP/IP connections?\n", retried},
		{"psql refused by name", "psql", 2, "psql: error: connection to server at \"db\" (10.0.0.5), port 5432 failed: Connection refused\n", retried},
		{"psql socket", "psql", 2, "psql: error: connection to server on socket \"/tmp/.s.PGSQL.5432\" failed: No such file or directory\n", retried},
		{"psql starting up", "psql", 2, "psql: error: connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  the database system is starting up\n", retried},
		{"psql too many", "psql", 2, "psql: error: connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  sorry, too many clients already\n", retried},
		{"psql deadlock", "psql", 3, "psql:m.sql:4: ERROR:  deadlock detected\nDETAIL:  Process 1 waits for ShareLock on transaction 2; blocked by process 3.\n", retried},
		{"psql no database", "psql", 2, "psql: error: connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  database \"nope\" does not exist\n", stopped},
		{"psql password", "psql", 2, "psql: error: connection to server at \"127.0.0.1\", port 5432 failed: FATAL:  password authentication failed for user \"postgres\"\n", stopped},
		{"psql syntax", "psql", 1, "ERROR:  syntax error at or near \"selec\"\n", notList},

		// mariadb 10.11 client against a local server.
		{"mysql refused", "mysql", 1, "ERROR 2002 (HY000): Can't connect to server on '127.0.0.1' (115)\n", retried},
		{"mysql socket", "mysql", 1, "ERROR 2002 (HY000): Can't connect to local server through socket '/tmp/x/sock' (2)\n", retried},
		{"mysql lock wait", "mysql", 1, "ERROR 1205 (HY000) at line 1: Lock wait timeout exceeded; try restarting transaction\n", retried},
		{"mysql too many", "mysql", 1, "ERROR 1040 (HY000): Too many connections\n", retried},
		{"mysqldump gone", "mysql", 2, "mysqldump: Error 2013: Lost connection to server during query when dumping table `t` at row: 0\n", retried},
		{"mysql denied", "mysql", 1, "ERROR 1045 (28000): Access denied for user 'app'@'localhost' (using password: YES)\n", stopped},
		{"mysql no database", "mysql", 1, "ERROR 1049 (42000): Unknown database 'nope'\n", stopped},
		{"mysql syntax", "mysql", 1, "ERROR 1064 (42000) at line 1: You have an error in your SQL syntax\n", notList},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := classifyWith(t, tc.preset, tc.code, tc.stderr)
			got := d.Class.String() + ": " + d.Reason
			if !strings.HasPrefix(got, tc.want) {
				t.Errorf("got %q; want %q...", got, tc.want)
			}
		})
	}
}
