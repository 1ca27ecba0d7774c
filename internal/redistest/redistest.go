// Package redistest starts real Redis servers for tests: on free loopback
// ports, with no persistence, each in a directory of its own, and
// optionally with a password, TLS (certificates openssl makes for the
// purpose), a Unix socket, as a Redis Cluster or behind a Sentinel. A
// test stops what it started, by PID. It is internal: other Go programs
// cannot import it.
package redistest

import (
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// ErrNoServer says that redis-server is not installed: a test then skips.
var ErrNoServer = errors.New("redis-server is not installed (Debian package redis-server); skipping")

// Config says how to start a server.
type Config struct {
	// Password, when set, is required of clients (requirepass).
	Password string
	// TLS serves TLS only, with a certificate for 127.0.0.1 and
	// localhost signed by a new CA (Server.Certs).
	TLS bool
	// ClientCerts, with TLS, requires of clients a certificate the CA
	// signed (tls-auth-clients yes).
	ClientCerts bool
	// Socket listens on a Unix socket too, Server.Socket.
	Socket bool
	// Port is the port to listen on; 0 picks a free one.
	Port int
	// Args are more arguments for redis-server, such as
	// "--maxmemory", "1".
	Args []string
}

// Server is a running redis-server or redis-sentinel.
type Server struct {
	// Port is the port it listens on, on 127.0.0.1.
	Port int
	// CAFile is the PEM file of the CA that signed its certificate,
	// with TLS; Certs has the others.
	CAFile string
	Certs  *Certs
	// Socket is the path of its Unix socket, with Config.Socket.
	Socket string
	cfg    Config
	dir    string
	log    string // the server's log file, in dir
	bin    string
	argv   func(port int) []string
	cmd    *exec.Cmd
	exited chan struct{}
}

// Start starts a server in dir (which must exist) and waits until it
// answers.
func Start(dir string, cfg Config) (*Server, error) {
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return nil, ErrNoServer
	}
	s := &Server{cfg: cfg, dir: dir, log: filepath.Join(dir, "redis.log"), bin: bin}
	if cfg.TLS {
		if s.Certs, err = MakeCerts(dir); err != nil {
			return nil, err
		}
		s.CAFile = s.Certs.CA
	}
	if cfg.Socket {
		s.Socket = filepath.Join(dir, "redis.sock")
	}
	s.argv = s.serverArgs
	return s, s.listen(cfg.Port)
}

// listen starts the server on port, or on a free one when port is 0: a
// free port may be taken by another process before the server binds it,
// so it tries a few.
func (s *Server) listen(port int) error {
	for try := 0; ; try++ {
		p := port
		if p == 0 {
			var err error
			if p, err = freePort(); err != nil {
				return err
			}
		}
		err := s.start(p)
		if err == nil || port != 0 || try == 4 {
			return err
		}
	}
}

func (s *Server) serverArgs(port int) []string {
	// A replica's first sync starts at once, not after 5s.
	args := []string{"--save", "", "--appendonly", "no", "--repl-diskless-sync-delay", "0", "--bind", "127.0.0.1", "--dir", s.dir, "--logfile", s.log}
	if s.cfg.TLS {
		auth := "no"
		if s.cfg.ClientCerts {
			auth = "yes"
		}
		args = append(args, "--port", "0", "--tls-port", strconv.Itoa(port),
			"--tls-cert-file", s.Certs.ServerCert, "--tls-key-file", s.Certs.ServerKey,
			"--tls-ca-cert-file", s.Certs.CA, "--tls-auth-clients", auth)
	} else {
		args = append(args, "--port", strconv.Itoa(port))
	}
	if s.Socket != "" {
		args = append(args, "--unixsocket", s.Socket, "--unixsocketperm", "700")
	}
	if s.cfg.Password != "" {
		// masterauth too, for a replica, or a primary a failover turns into one
		args = append(args, "--requirepass", s.cfg.Password, "--masterauth", s.cfg.Password)
	}
	return append(args, s.cfg.Args...)
}

func (s *Server) start(port int) error {
	cmd := exec.Command(s.bin, s.argv(port)...)
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd, s.Port, s.exited = cmd, port, make(chan struct{})
	go func() { cmd.Wait(); close(s.exited) }()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		select {
		case <-s.exited:
			log, _ := os.ReadFile(s.log)
			return fmt.Errorf("%s exited at start: %s", filepath.Base(s.bin), lastLine(string(log)))
		default:
		}
		if c, err := net.Dial("tcp", s.Addr()); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.Stop()
	return fmt.Errorf("%s did not listen within 10s", filepath.Base(s.bin))
}

// Addr returns "127.0.0.1:PORT".
func (s *Server) Addr() string { return net.JoinHostPort("127.0.0.1", strconv.Itoa(s.Port)) }

// URL returns the server's URL, with the password when it has one.
func (s *Server) URL() string {
	scheme := "redis"
	if s.cfg.TLS {
		scheme = "rediss"
	}
	auth := ""
	if s.cfg.Password != "" {
		auth = ":" + s.cfg.Password + "@"
	}
	return fmt.Sprintf("%s://%s%s", scheme, auth, s.Addr())
}

// PID returns the server's process id.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Stop kills the server (SIGKILL) and waits for it to exit. Stopping
// twice does nothing.
func (s *Server) Stop() {
	if s.cmd == nil {
		return
	}
	s.cmd.Process.Kill()
	<-s.exited
	s.cmd = nil
}

// Restart starts the server again on the same port, empty.
func (s *Server) Restart() error {
	s.Stop()
	return s.start(s.Port)
}

func freePort() (int, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, err
	}
	defer ln.Close()
	return ln.Addr().(*net.TCPAddr).Port, nil
}

func lastLine(s string) string {
	s = strings.TrimSpace(s)
	if i := strings.LastIndexByte(s, '\n'); i >= 0 {
		return s[i+1:]
	}
	return s
}
