// Package redistest starts a real redis-server for tests: on a free
// loopback port, with no persistence, in a directory of its own, and
// optionally with a password or TLS (a CA it makes for the purpose).
package redistest

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/pem"
	"errors"
	"fmt"
	"math/big"
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
	// localhost signed by a new CA written to Server.CAFile.
	TLS bool
	// Port is the port to listen on; 0 picks a free one.
	Port int
	// Args are more arguments for redis-server, such as
	// "--maxmemory", "1".
	Args []string
}

// Server is a running redis-server.
type Server struct {
	// Port is the port it listens on, on 127.0.0.1.
	Port int
	// CAFile is the PEM file of the CA that signed its certificate,
	// with TLS.
	CAFile string
	cfg    Config
	dir    string
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
	s := &Server{cfg: cfg, dir: dir}
	if cfg.TLS {
		if err := s.makeCerts(); err != nil {
			return nil, err
		}
	}
	// A free port may be taken by another process before the server
	// binds it: try a few.
	for try := 0; ; try++ {
		port := cfg.Port
		if port == 0 {
			if port, err = freePort(); err != nil {
				return nil, err
			}
		}
		err = s.start(bin, port)
		if err == nil || cfg.Port != 0 || try == 4 {
			return s, err
		}
	}
}

func (s *Server) start(bin string, port int) error {
	args := []string{"--save", "", "--appendonly", "no", "--bind", "127.0.0.1", "--dir", s.dir, "--logfile", filepath.Join(s.dir, "redis.log")}
	if s.cfg.TLS {
		args = append(args, "--port", "0", "--tls-port", strconv.Itoa(port),
			"--tls-cert-file", filepath.Join(s.dir, "server.pem"), "--tls-key-file", filepath.Join(s.dir, "server.key"),
			"--tls-ca-cert-file", s.CAFile, "--tls-auth-clients", "no")
	} else {
		args = append(args, "--port", strconv.Itoa(port))
	}
	if s.cfg.Password != "" {
		args = append(args, "--requirepass", s.cfg.Password)
	}
	args = append(args, s.cfg.Args...)
	cmd := exec.Command(bin, args...)
	if err := cmd.Start(); err != nil {
		return err
	}
	s.cmd, s.Port, s.exited = cmd, port, make(chan struct{})
	go func() { cmd.Wait(); close(s.exited) }()
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); {
		select {
		case <-s.exited:
			log, _ := os.ReadFile(filepath.Join(s.dir, "redis.log"))
			return fmt.Errorf("redis-server exited at start: %s", lastLine(string(log)))
		default:
		}
		if c, err := net.Dial("tcp", net.JoinHostPort("127.0.0.1", strconv.Itoa(port))); err == nil {
			c.Close()
			return nil
		}
		time.Sleep(10 * time.Millisecond)
	}
	s.Stop()
	return errors.New("redis-server did not listen within 10s")
}

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
	return fmt.Sprintf("%s://%s127.0.0.1:%d", scheme, auth, s.Port)
}

// PID returns the server's process id.
func (s *Server) PID() int { return s.cmd.Process.Pid }

// Stop kills the server and waits for it to exit. Stopping twice does
// nothing.
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
	bin, err := exec.LookPath("redis-server")
	if err != nil {
		return ErrNoServer
	}
	return s.start(bin, s.Port)
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

// makeCerts writes a new CA (ca.pem, also s.CAFile) and a server
// certificate for 127.0.0.1 and localhost it signed (server.pem,
// server.key) into s.dir.
func (s *Server) makeCerts() error {
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	now := time.Now()
	ca := &x509.Certificate{
		SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "retry test CA"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		IsCA: true, BasicConstraintsValid: true, KeyUsage: x509.KeyUsageCertSign,
	}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	if err != nil {
		return err
	}
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return err
	}
	leaf := &x509.Certificate{
		SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "127.0.0.1"},
		NotBefore: now.Add(-time.Hour), NotAfter: now.Add(24 * time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.IPv4(127, 0, 0, 1)}, DNSNames: []string{"localhost"},
	}
	leafDER, err := x509.CreateCertificate(rand.Reader, leaf, ca, &key.PublicKey, caKey)
	if err != nil {
		return err
	}
	keyDER, err := x509.MarshalECPrivateKey(key)
	if err != nil {
		return err
	}
	s.CAFile = filepath.Join(s.dir, "ca.pem")
	for name, block := range map[string]*pem.Block{
		"ca.pem":     {Type: "CERTIFICATE", Bytes: caDER},
		"server.pem": {Type: "CERTIFICATE", Bytes: leafDER},
		"server.key": {Type: "EC PRIVATE KEY", Bytes: keyDER},
	} {
		if err := os.WriteFile(filepath.Join(s.dir, name), pem.EncodeToMemory(block), 0o600); err != nil {
			return err
		}
	}
	return nil
}
