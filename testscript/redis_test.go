//go:build unix

package testscript_test

import (
	"flag"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/b0a38808/retry/runner/budget/redisstore/redistest"
)

// redis-server [-password PW] [-tls] starts a real redis-server on a free
// loopback port, without persistence, for the rest of the script (a new one
// each time), and sets $REDIS_URL (with the password), $REDIS_PORT,
// $REDIS_PID and, with -tls, $REDIS_CA, the PEM file of the CA that signed
// its certificate. A script that uses it starts with
// "[!redis] skip 'redis-server is not installed (Debian package redis-server)'".
func redisServer(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("redis-server", flag.ContinueOnError)
	password := fs.String("password", "", "require this password")
	tls := fs.Bool("tls", false, "serve TLS only")
	if neg || fs.Parse(args) != nil || fs.NArg() != 0 {
		ts.Fatalf("usage: redis-server [-password PW] [-tls]")
	}
	dir, err := os.MkdirTemp(ts.Getenv("WORK"), ".redis-")
	ts.Check(err)
	srv, err := redistest.Start(dir, redistest.Config{Password: *password, TLS: *tls})
	ts.Check(err)
	ts.Defer(srv.Stop)
	ts.Setenv("REDIS_URL", srv.URL())
	ts.Setenv("REDIS_PORT", strconv.Itoa(srv.Port))
	ts.Setenv("REDIS_PID", strconv.Itoa(srv.PID()))
	if *tls {
		ts.Setenv("REDIS_CA", filepath.Clean(srv.CAFile))
	}
}

// condition answers the scripts' own conditions: [redis] holds when
// redis-server is installed; serverConditions answers the others.
func condition(cond string) (bool, error) {
	if cond == "redis" {
		_, err := exec.LookPath("redis-server")
		return err == nil, nil
	}
	return serverConditions(cond)
}
