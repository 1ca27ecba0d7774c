package redistest

import (
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"time"
)

// StartReplica starts a server in dir that replicates primary, and waits
// until its link to the primary is up.
func StartReplica(dir string, primary *Server) (*Server, error) {
	cfg := Config{Args: []string{"--replicaof", "127.0.0.1", strconv.Itoa(primary.Port)}}
	cfg.Password = primary.cfg.Password
	r, err := Start(dir, cfg)
	if err != nil {
		return nil, err
	}
	err = waitFor(20*time.Second, "replica of "+primary.Addr()+" in sync", func() (bool, error) {
		link, err := r.Info("replication", "master_link_status")
		return link == "up", err
	})
	if err != nil {
		r.Stop()
		return nil, err
	}
	return r, nil
}

// StartSentinel starts a Sentinel in dir that watches primary under the
// name master, with quorum 1 and the given down-after-milliseconds, and
// waits until it knows the primary's replicas (wantReplicas of them).
// It is redis-sentinel, or redis-server --sentinel without it.
func StartSentinel(dir, master string, primary *Server, downAfter time.Duration, wantReplicas int) (*Server, error) {
	bin, err := exec.LookPath("redis-sentinel")
	sentinelFlag := false
	if err != nil {
		if bin, err = exec.LookPath("redis-server"); err != nil {
			return nil, ErrNoServer
		}
		sentinelFlag = true
	}
	// A Sentinel of a TLS primary speaks TLS, with the primary's
	// certificates, to its clients and to the servers it watches.
	s := &Server{dir: dir, log: filepath.Join(dir, "sentinel.log"), bin: bin, cfg: Config{TLS: primary.cfg.TLS}, Certs: primary.Certs}
	conf := filepath.Join(dir, "sentinel.conf")
	s.argv = func(port int) []string {
		text := fmt.Sprintf("port %d\n", port)
		if s.cfg.TLS {
			c := s.Certs
			text = fmt.Sprintf("port 0\ntls-port %d\ntls-cert-file %s\ntls-key-file %s\ntls-ca-cert-file %s\ntls-auth-clients no\ntls-replication yes\n",
				port, c.ServerCert, c.ServerKey, c.CA)
		}
		text += fmt.Sprintf("bind 127.0.0.1\ndir %s\nlogfile %s\n", dir, s.log)
		text += fmt.Sprintf("sentinel monitor %s 127.0.0.1 %d 1\nsentinel down-after-milliseconds %s %d\nsentinel failover-timeout %s 5000\n",
			master, primary.Port, master, downAfter.Milliseconds(), master)
		if primary.cfg.Password != "" {
			text += fmt.Sprintf("sentinel auth-pass %s %s\n", master, primary.cfg.Password)
		}
		// The Sentinel rewrites its configuration file as it learns.
		os.WriteFile(conf, []byte(text), 0o600)
		args := []string{conf}
		if sentinelFlag {
			args = append(args, "--sentinel")
		}
		return args
	}
	if err := s.listen(0); err != nil {
		return nil, err
	}
	err = waitFor(20*time.Second, "the Sentinel knows "+strconv.Itoa(wantReplicas)+" replica(s)", func() (bool, error) {
		v, err := s.Do("SENTINEL", "REPLICAS", master)
		reps, _ := v.([]any)
		return len(reps) >= wantReplicas, err
	})
	if err != nil {
		s.Stop()
		return nil, err
	}
	return s, nil
}

// Primary returns the address of master's primary, as the Sentinel
// names it.
func (s *Server) Primary(master string) (string, error) {
	v, err := s.Do("SENTINEL", "GET-MASTER-ADDR-BY-NAME", master)
	if err != nil {
		return "", err
	}
	f, ok := v.([]any)
	if !ok || len(f) != 2 {
		return "", fmt.Errorf("the Sentinel knows no primary of %q", master)
	}
	return net.JoinHostPort(f[0].(string), f[1].(string)), nil
}

// AwaitPrimary waits until the Sentinel names one of servers as master's
// primary and that one says it is a master, and returns it.
func (s *Server) AwaitPrimary(master string, limit time.Duration, servers ...*Server) (*Server, error) {
	var got *Server
	err := waitFor(limit, "one of the servers promoted", func() (bool, error) {
		addr, err := s.Primary(master)
		if err != nil {
			return false, err
		}
		for _, c := range servers {
			if c.Addr() == addr {
				role, err := c.Info("replication", "role")
				got = c
				return role == "master", err
			}
		}
		return false, fmt.Errorf("the Sentinel names %s", addr)
	})
	if err != nil {
		return nil, err
	}
	return got, nil
}
