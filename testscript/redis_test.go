//go:build unix

package testscript_test

import (
	"flag"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"sync"
	"time"

	"github.com/rogpeppe/go-internal/testscript"

	"github.com/b0a38808/retry/internal/redistest"
	"github.com/b0a38808/retry/runner/budget/redisstore"
)

// redisCmds returns the commands that start real Redis servers for the
// rest of a script, each stopped by PID at its end. A script that uses
// them starts with
// "[!redis] skip 'redis-server is not installed (Debian package redis-server)'".
//
//	redis-server [-password PW] [-tls] [-client-certs] [-socket]
//	    one server: $REDIS_URL (with the password), $REDIS_PORT, $REDIS_PID;
//	    with -tls, $REDIS_CA (its CA), $REDIS_OTHER_CA (one that signed
//	    nothing), $REDIS_CLIENT_CERT and $REDIS_CLIENT_KEY (-client-certs
//	    requires them); with -socket, $REDIS_SOCKET
//	redis-cluster BUDGET
//	    a Redis Cluster of three primaries: $CLUSTER_PORT1 to 3; $SLOT, the
//	    hash slot of BUDGET's keys; $OWNER_PORT and $OWNER_ID, the node that
//	    serves it, and $TARGET_PORT and $TARGET_ID, the next node
//	redis-sentinel
//	    a primary ($REDIS_PORT, $REDIS_PID), its replica ($REPLICA_PORT) and
//	    a Sentinel ($SENTINEL_PORT) that calls them mymaster, with a
//	    down-after-milliseconds of 600000: a script that kills the primary
//	    lowers it (SENTINEL SET) when the Sentinel may promote the replica
//	silent VAR
//	    a port, in $VAR, that accepts connections and never answers
func redisCmds() map[string]func(*testscript.TestScript, bool, []string) {
	return map[string]func(*testscript.TestScript, bool, []string){
		"redis-server":   redisServer,
		"redis-cluster":  redisCluster,
		"redis-sentinel": redisSentinel,
		"silent":         silent,
	}
}

func redisServer(ts *testscript.TestScript, neg bool, args []string) {
	fs := flag.NewFlagSet("redis-server", flag.ContinueOnError)
	password := fs.String("password", "", "require this password")
	tls := fs.Bool("tls", false, "serve TLS only")
	clientCerts := fs.Bool("client-certs", false, "with -tls, require client certificates")
	socket := fs.Bool("socket", false, "listen on a Unix socket too")
	if neg || fs.Parse(args) != nil || fs.NArg() != 0 {
		ts.Fatalf("usage: redis-server [-password PW] [-tls] [-client-certs] [-socket]")
	}
	srv, err := redistest.Start(redisDir(ts), redistest.Config{Password: *password, TLS: *tls, ClientCerts: *clientCerts, Socket: *socket})
	ts.Check(err)
	ts.Defer(srv.Stop)
	ts.Setenv("REDIS_URL", srv.URL())
	ts.Setenv("REDIS_PORT", strconv.Itoa(srv.Port))
	ts.Setenv("REDIS_PID", strconv.Itoa(srv.PID()))
	if *tls {
		c := srv.Certs
		for name, file := range map[string]string{"REDIS_CA": c.CA, "REDIS_OTHER_CA": c.OtherCA, "REDIS_CLIENT_CERT": c.ClientCert, "REDIS_CLIENT_KEY": c.ClientKey} {
			ts.Setenv(name, filepath.Clean(file))
		}
	}
	if *socket {
		ts.Setenv("REDIS_SOCKET", srv.Socket)
	}
}

// redisDir returns a new directory for a server in $WORK.
func redisDir(ts *testscript.TestScript) string {
	dir, err := os.MkdirTemp(ts.Getenv("WORK"), ".redis-")
	ts.Check(err)
	return dir
}

func redisCluster(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: redis-cluster BUDGET")
	}
	c, err := redistest.StartCluster(redisDir(ts), 3)
	ts.Check(err)
	ts.Defer(c.Stop)
	for i, n := range c.Nodes {
		ts.Setenv("CLUSTER_PORT"+strconv.Itoa(i+1), strconv.Itoa(n.Port))
	}
	v, err := c.Nodes[0].Do("CLUSTER", "KEYSLOT", redisstore.Key(args[0], "window"))
	ts.Check(err)
	slot := int(v.(int64))
	owner, err := c.Owner(slot)
	ts.Check(err)
	target := c.Nodes[0]
	for i, n := range c.Nodes {
		if n == owner {
			target = c.Nodes[(i+1)%len(c.Nodes)]
		}
	}
	ts.Setenv("SLOT", strconv.Itoa(slot))
	for prefix, n := range map[string]*redistest.Server{"OWNER": owner, "TARGET": target} {
		id, err := n.ID()
		ts.Check(err)
		ts.Setenv(prefix+"_PORT", strconv.Itoa(n.Port))
		ts.Setenv(prefix+"_ID", id)
	}
}

func redisSentinel(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 0 {
		ts.Fatalf("usage: redis-sentinel")
	}
	primary, err := redistest.Start(redisDir(ts), redistest.Config{})
	ts.Check(err)
	ts.Defer(primary.Stop)
	replica, err := redistest.StartReplica(redisDir(ts), primary)
	ts.Check(err)
	ts.Defer(replica.Stop)
	// No failover until the script asks for one: what runs while the
	// primary is down finds no primary, however loaded the machine.
	sentinel, err := redistest.StartSentinel(redisDir(ts), "mymaster", primary, 10*time.Minute, 1)
	ts.Check(err)
	ts.Defer(sentinel.Stop)
	ts.Setenv("REDIS_PORT", strconv.Itoa(primary.Port))
	ts.Setenv("REDIS_PID", strconv.Itoa(primary.PID()))
	ts.Setenv("REPLICA_PORT", strconv.Itoa(replica.Port))
	ts.Setenv("SENTINEL_PORT", strconv.Itoa(sentinel.Port))
}

func silent(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: silent VAR")
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	ts.Check(err)
	var mu sync.Mutex
	var held []net.Conn
	ts.Defer(func() {
		ln.Close()
		mu.Lock()
		defer mu.Unlock()
		for _, c := range held {
			c.Close()
		}
	})
	go func() {
		for {
			c, err := ln.Accept()
			if err != nil {
				return
			}
			mu.Lock()
			held = append(held, c)
			mu.Unlock()
		}
	}()
	ts.Setenv(args[0], strconv.Itoa(ln.Addr().(*net.TCPAddr).Port))
}

// condition answers the scripts' own conditions: [redis] holds when
// redis-server is installed, [redis-cluster] when redis-cli is too (it
// joins a cluster); serverConditions answers the others.
func condition(cond string) (bool, error) {
	switch cond {
	case "redis":
		_, err := exec.LookPath("redis-server")
		return err == nil, nil
	case "redis-cluster":
		for _, tool := range []string{"redis-server", "redis-cli"} {
			if _, err := exec.LookPath(tool); err != nil {
				return false, nil
			}
		}
		return true, nil
	}
	return serverConditions(cond)
}
