package classify

// deployPresets returns the presets for the tools of scripted deploys:
// infrastructure, cloud APIs, package indexes, file sync and databases.
// Every message is the tool's own, as its source or manual spells it.
func deployPresets() []Preset {
	const (
		tfLock     = "terraform: internal/command/clistate/state.go (\"Error acquiring the state lock\"), internal/command/meta_backend.go"
		tfRegistry = "terraform: internal/getproviders/errors.go, registry_client.go (maxRetryErrorHandler), internal/initwd/module_install.go"
		tfConfig   = "terraform: hashicorp/hcl diagnostics, internal/configs, internal/command/init.go; rendered by internal/command/format/diagnostic.go"
		helmAction = `helm: pkg/action/action.go errPending "another operation (install/upgrade/rollback) is in progress"`
		helmFetch  = `helm: pkg/getter/httpgetter.go "failed to fetch %s : %s"; oras-go registry/remote/errcode "response status code %d: %s"`
		botoRetry  = "botocore: botocore/retries/standard.py (_THROTTLED_ERROR_CODES, _TRANSIENT_ERROR_CODES, _TRANSIENT_STATUS_CODES); botocore/exceptions.py ClientError"
		botoConn   = "botocore: botocore/exceptions.py (EndpointConnectionError, ConnectTimeoutError, ReadTimeoutError, ConnectionClosedError)"
		pipNet     = "pip: src/pip/_internal/network/session.py (Retry, status_forcelist), network/download.py, commands/install.py; urllib3 connectionpool.py"
		rsyncExit  = "rsync(1) EXIT VALUES; rsync: log.c rerr_names"
		rsyncDmn   = "rsync: clientserver.c (\"@ERROR: max connections (%d) reached -- try again later\", \"@ERROR: Unknown module '%s'\")"
		pgConn     = `PostgreSQL: src/interfaces/libpq/fe-connect.c (connection to server at "%s" (%s), port %s failed)`
		pgServer   = "PostgreSQL: src/backend/tcop/backend_startup.c, postmaster.c (CAC_STARTUP, CAC_SHUTDOWN, CAC_RECOVERY, CAC_NOTCONSISTENT, CAC_TOOMANY); utils/init/postinit.c"
		pgAuth     = `PostgreSQL: src/backend/libpq/auth.c (auth_failed), utils/init/postinit.c (database "%s" does not exist)`
		myClient   = "MariaDB Connector/C libmariadb/ma_errmsg.c (CR_CONNECTION_ERROR 2002, CR_CONN_HOST_ERROR 2003, CR_SERVER_GONE_ERROR 2006, CR_SERVER_LOST 2013); MySQL include/errmsg.h"
		myServer   = "MariaDB: sql/share/errmsg-utf8.txt (ER_CON_COUNT_ERROR 1040, ER_SERVER_SHUTDOWN 1053, ER_TOO_MANY_USER_CONNECTIONS 1203, ER_LOCK_WAIT_TIMEOUT 1205, ER_LOCK_DEADLOCK 1213); client/mysql.cc \"ERROR %d (%s)\""
		myDenied   = "MariaDB: sql/share/errmsg-utf8.txt (ER_DBACCESS_DENIED_ERROR 1044, ER_ACCESS_DENIED_ERROR 1045, ER_BAD_DB_ERROR 1049, ER_ACCESS_DENIED_NO_PASSWORD_ERROR 1698)"
	)
	return []Preset{
		{Name: "terraform", Summary: "terraform init, plan, apply: a held state lock, provider and module registries that fail for a while", Rules: []PresetRule{
			{StopIf, `Error: (\x1b\[[0-9;]*m)*(Unsupported (argument|attribute|block type)|Missing required (argument|provider)|Argument or block definition required|Reference to undeclared |Invalid |Unclosed configuration block|Duplicate |Module not installed|Inconsistent dependency lock file|Incorrect attribute value type|No value for required variable)`, "the configuration is invalid or not initialised: another attempt fails the same way", tfConfig},
			{StopIf, `(x509: certificate|tls: failed to verify certificate|: no such host)`, "a certificate terraform does not trust, or a registry host name that does not exist: another attempt fails the same way", "Go crypto/x509 and net error strings, through " + tfRegistry},
			{RetryIf, `Error acquiring the state lock`, "another run holds the state lock; it frees when that run ends (a lock left by a crashed run needs terraform force-unlock)", tfLock},
			{RetryIf, `(could not connect to \S+: |the request failed( after \d+ attempts)?, please try again later|failed to request discovery document|Error accessing remote module registry)`, "a provider or module registry could not be reached, or kept failing after terraform's own retries", tfRegistry},
			{RetryIf, `Error while installing \S+ v\S+: .*(i/o timeout|connection refused|connection reset by peer|unexpected EOF|TLS handshake timeout|50[234] )`, "a provider package download broke or met a transient status", tfRegistry + "; internal/command/init.go (\"Error while installing %s v%s: %s\")"},
		}, Blind: "terraform wraps a diagnostic's detail at 78 columns off a terminal, so a registry message split over two lines can escape its rule: run init, plan and apply with -json and add --match both, where each diagnostic is one line on stdout"},
		{Name: "helm", Summary: "helm install, upgrade, rollback, pull, repo add/update: a release busy with another operation, registries and the Kubernetes API failing for a while", Rules: []PresetRule{
			{StopIf, `Error: .*(not found in .* (repository|index)|no chart version found|cannot re-?use a name that is still in use|has no deployed releases|YAML parse error|parse error at|execution error at|unable to build kubernetes objects)`, "a missing chart or version, a taken release name, or a chart that does not render", "helm: pkg/repo/v1/error.go, pkg/repo/v1/index.go, pkg/action/install.go, pkg/engine/engine.go, pkg/storage/driver/driver.go"},
			{RetryIf, `another operation \(install/upgrade/rollback\) is in progress`, "another helm is changing the release; the operation ends by itself (a release left pending by a killed helm needs helm rollback)", helmAction},
			{RetryIf, `(failed to fetch \S+ : (408|429|500|502|503|504) |response status code (408|429|500|502|503|504): |toomanyrequests)`, "a chart repository or OCI registry answered with a transient status", helmFetch},
			{RetryIf, `(dial tcp .*: (connect: connection refused|i/o timeout|connect: connection timed out)|connection reset by peer|TLS handshake timeout|unexpected EOF)`, "the registry or the Kubernetes API server could not be reached (helm: \"kubernetes cluster unreachable: %w\")", "helm: pkg/kube/client.go (IsReachable); Go net and net/http error strings"},
			{RetryIf, `(the server is currently unable to handle the request|etcdserver: (request timed out|leader changed)|the server has received too many requests|the object has been modified; please apply your changes)`, "the Kubernetes API server is overloaded or restarting, or an optimistic-concurrency conflict", "Kubernetes apimachinery pkg/api/errors (ServiceUnavailable, TooManyRequests, Conflict); etcd server errors"},
		}, Blind: "helm prints its errors on stderr whatever its flags say; a 2>/dev/null hides them"},
		{Name: "aws", Summary: "the AWS CLI (botocore): the throttling and transient errors botocore's standard retry mode retries", Rules: []PresetRule{
			{StopIf, `An error occurred \((AccessDenied|AccessDeniedException|UnauthorizedOperation|UnauthorizedException|InvalidClientTokenId|SignatureDoesNotMatch|UnrecognizedClientException|InvalidAccessKeyId|InvalidSignatureException|IncompleteSignature|MissingAuthenticationToken|AuthFailure|ExpiredToken|ExpiredTokenException|InvalidToken|OptInRequired|ValidationError|ValidationException|InvalidParameterValue|InvalidParameterCombination|MissingParameter|NoSuchBucket|NoSuchKey|ResourceNotFoundException|400|403|404)\)`, "credentials, permissions or the request itself are wrong: another attempt fails the same way", "botocore: botocore/exceptions.py ClientError \"An error occurred (%s) when calling the %s operation\"; AWS API common errors"},
			{StopIf, `(Unable to locate credentials|The config profile \(.*\) could not be found|Partial credentials found in)`, "no usable credentials or profile", "botocore: botocore/exceptions.py (NoCredentialsError, ProfileNotFound, PartialCredentialsError)"},
			{RetryIf, `An error occurred \((Throttling|ThrottlingException|ThrottledException|RequestThrottledException|TooManyRequestsException|ProvisionedThroughputExceededException|TransactionInProgressException|RequestLimitExceeded|BandwidthLimitExceeded|LimitExceededException|RequestThrottled|SlowDown|PriorRequestNotComplete|EC2ThrottledException|RequestTimeout|RequestTimeoutException|InternalError|InternalFailure|InternalServerError|ServiceUnavailable|500|502|503|504)\)`, "throttling and transient error codes, and the 500, 502, 503, 504 statuses, as botocore's standard retry mode retries them", botoRetry},
			{RetryIf, `(Could not connect to the|Connect timeout on|Read timeout on|Connection was closed before we received a valid response from) endpoint URL`, "the endpoint could not be reached or stopped answering", botoConn},
			{RetryIf, `(An HTTP Client (failed to establish a connection|raised an unhandled exception)|Failed to connect to proxy URL|An error occurred while reading from response stream)`, "a connection or proxy failure that botocore counts as transient", botoConn + "; botocore/exceptions.py (HTTPClientError, ProxyConnectionError, ResponseStreamingError)"},
		}, Blind: "botocore retries by itself first: AWS_MAX_ATTEMPTS=1 leaves the retrying to retry; no aws flag hides the errors"},
		{Name: "pip", Summary: "pip install and download: index and download timeouts, refused connections, 5xx statuses", Rules: []PresetRule{
			{StopIf, `Could not find a version that satisfies the requirement .* \(from versions: [^n)]`, "the index answered, and none of its versions fits the requirement", "pip: src/pip/_internal/resolution/resolvelib/factory.py (\"Could not find a version that satisfies the requirement %s (from versions: %s)\")"},
			{RetryIf, `Retrying \(Retry\(.*\)\) after connection broken by '(NewConnectionError|ConnectTimeoutError|ReadTimeoutError|ProtocolError|RemoteDisconnected|SSLError|ProxyError)`, "the index or a download could not be reached or broke (pip's own retries, printed as warnings)", pipNet},
			{RetryIf, `(HTTP error (408|429|500|502|503|504) while getting |Could not install packages due to an OSError: .*(Max retries exceeded|Connection (refused|reset|aborted)|Read timed out|timed out))`, "a package download met a transient status or a broken connection", pipNet},
			{RetryIf, `Could not fetch URL .*: .*(Max retries exceeded|connection error|timed out)`, "the index page could not be fetched (pip prints this only with -vv)", "pip: src/pip/_internal/index/collector.py _handle_get_simple_fail (\"Could not fetch URL %s: %s - skipping\")"},
		}, Blind: "at its default verbosity pip hides an index page that failed and says only \"No matching distribution found\", as for a project that does not exist: add -vv and --match both to see the failed fetch on stdout; -q, -qq and -qqq keep the errors"},
		{Name: "rsync", Summary: "rsync: socket, protocol and timeout failures, a daemon at its connection limit", Rules: []PresetRule{
			{StopOn, "1-4", "syntax or usage error (1), protocol incompatibility (2), errors selecting files (3), action not supported (4)", rsyncExit},
			{StopIf, `@ERROR: (Unknown module|auth failed on module|access denied to)`, "the daemon has no such module or refuses these credentials (exit 5)", rsyncDmn},
			{RetryOn, "10,12,30,35", "socket I/O (10), protocol data stream (12), timeout in data send/receive (30), timeout waiting for daemon connection (35)", rsyncExit},
			{RetryIf, `@ERROR: max connections \(\d+\) reached -- try again later`, "the daemon is at its max connections (exit 5): a slot frees when a transfer ends", rsyncDmn},
			{RetryIf, `^ssh: connect to host .* port .*: (Connection refused|Connection timed out|No route to host|Network is unreachable)`, "the SSH transport could not connect (exit 255)", `OpenSSH sshconnect.c: "ssh: connect to host %s port %s: %s"`},
		}, Blind: "-q hides rsync's progress, not its errors or the daemon's"},
		{Name: "psql", Summary: "psql and the libpq tools: a server starting up, at its connection limit or not yet listening", Rules: []PresetRule{
			{StopIf, `((password|Peer|Ident) authentication failed for user|(database|role) ".*" does not exist|no pg_hba\.conf entry for)`, "authentication, a missing database or role, or a refused host: another attempt fails the same way", pgAuth},
			{RetryIf, `the database system is (starting up|shutting down|in recovery mode|not yet accepting connections)`, "the server is starting, stopping or recovering", pgServer},
			{RetryIf, `(sorry, too many clients already|remaining connection slots are reserved for|too many connections for (role|database))`, "the server or the role is at its connection limit; a slot frees when a session ends", pgServer},
			{RetryIf, `(connection to server at ".*"( \(.*\))?, port \d+ failed: (Connection refused|Connection timed out|No route to host|Network is unreachable|server closed the connection unexpectedly|timeout expired)|connection to server on socket ".*" failed: (No such file or directory|Connection refused)|could not connect to server: (Connection refused|No such file or directory)|could not translate host name ".*" to address: Temporary failure)`, "the server is not listening yet, or the network or resolver failed", pgConn},
			{RetryIf, `ERROR:  (deadlock detected|could not serialize access due to )`, "a deadlock or a serialization failure: the transaction was rolled back and may be run again", "PostgreSQL: src/backend/storage/lmgr/deadlock.c; SQLSTATE 40P01, 40001 (Appendix A)"},
		}, Blind: "-q hides notices, not errors; the server's FATAL messages come in its lc_messages, whatever the client's locale"},
		{Name: "mysql", Summary: "mysql and mariadb clients and tools: a server not listening, gone away, busy, deadlocked or at its connection limit", Rules: []PresetRule{
			{StopIf, `(^ERROR (1044|1045|1049|1698) \(|Access denied for user |Unknown database ')`, "credentials, privileges or a missing database: another attempt fails the same way", myDenied},
			{RetryIf, `^ERROR (1040|1053|1203|1205|1213|2002|2003|2006|2013|2055) \(`, "the client's error code: cannot connect, server gone away or lost, too many connections (for the server or the user), shutting down, lock wait timeout, deadlock", myClient + "; " + myServer},
			{RetryIf, `(Can't connect to (local )?(MySQL )?server|Lost connection to (MySQL )?server|(MySQL )?[Ss]erver has gone away)`, "the server is not listening yet, or the connection broke (as mysqldump and mysqladmin print it)", myClient},
			{RetryIf, `(Too many connections|Deadlock found when trying to get lock|Lock wait timeout exceeded)`, "the server is at its connection limit, or a transaction was rolled back for a lock", myServer},
		}, Blind: "--silent hides output, not errors; the text after ERROR nnnn comes in the server's lc_messages (the codes do not)"},
	}
}
