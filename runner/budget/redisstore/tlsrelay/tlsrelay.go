// Package tlsrelay holds the TLS of a budget store's connections: the
// configuration of the URL's cacert=, cert= and key=, the handshake, the
// errors that name their cause, and the relay of bytes between a plain
// connection and the TLS one. The program retry-tls runs it for retry,
// which links no crypto of its own (docs/dev/architecture.md); on
// Windows retry calls it in process.
package tlsrelay

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"sync/atomic"
	"time"
)

// Files are the files of a store URL's TLS parameters: cacert=, cert=
// and key=. Empty ones are not used.
type Files struct {
	CACert, Cert, Key string
}

// Config is the configuration of a store's TLS connections.
type Config struct {
	cfg *tls.Config
}

// Load reads f into a configuration: TLS 1.2 or later, the CA of cacert=
// instead of the system's roots, and the client certificate of cert= and
// key=, sent whenever the server asks for one. Its errors name the
// parameter: "cacert=: ...", "cert= and key=: ...".
func Load(f Files) (*Config, error) {
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if f.CACert != "" {
		pem, err := os.ReadFile(f.CACert)
		if err != nil {
			return nil, fmt.Errorf("cacert=: %v", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return nil, fmt.Errorf("cacert=: %s holds no PEM certificate", f.CACert)
		}
		cfg.RootCAs = pool
	}
	if f.Cert != "" {
		pair, err := tls.LoadX509KeyPair(f.Cert, f.Key)
		if err != nil {
			return nil, fmt.Errorf("cert= and key=: %v", err)
		}
		// Sent even when the server's list of CAs does not name its
		// issuer, which would make Go's default send none.
		cfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &pair, nil }
	}
	return &Config{cfg}, nil
}

// Dial connects to address on network ("tcp" or "unix") and completes a
// TLS handshake that checks the server's certificate for serverName,
// within ctx. Its errors name their cause (see Cause).
func (c *Config) Dial(ctx context.Context, network, address, serverName string) (*Conn, error) {
	var d net.Dialer
	nc, err := d.DialContext(ctx, network, address)
	if err != nil {
		return nil, err
	}
	cfg := c.cfg.Clone()
	cfg.ServerName = serverName
	tc := &Conn{}
	give := cfg.GetClientCertificate
	cfg.GetClientCertificate = func(cri *tls.CertificateRequestInfo) (*tls.Certificate, error) {
		tc.asked = true
		if give == nil {
			return &tls.Certificate{}, nil // none to send
		}
		tc.sent = true
		return give(cri)
	}
	tc.Conn = tls.Client(nc, cfg)
	if err := tc.HandshakeContext(ctx); err != nil {
		nc.Close()
		return nil, Cause(err)
	}
	return tc, nil
}

// Conn is a TLS connection, and what its handshake told of the client
// certificate: whether the server asked for one, and whether one was
// sent.
type Conn struct {
	*tls.Conn
	asked, sent bool
	heard       atomic.Bool // the relay has read something from the server
}

// Refused returns why the server closed c, a connection that failed
// with err at its first exchange: in TLS 1.3 the server checks the
// client's certificate after the client's handshake is over, so a
// refusal shows only then, as an alert (which a write that failed first
// may hide) or as a closed connection. Else it returns err.
func (c *Conn) Refused(err error) error {
	c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	var buf [1]byte
	_, rerr := c.Read(buf[:])
	if isAlert(rerr) {
		return rerr
	}
	return c.firstRefusal(err)
}

// firstRefusal says what err, the failure of the first exchange on c
// with no alert from the server, means of the client certificate.
func (c *Conn) firstRefusal(err error) error {
	switch {
	case c.asked && !c.sent:
		return errCertRequired
	case c.asked:
		return fmt.Errorf("TLS: the server refused the client certificate (%v)", err)
	}
	return err
}

// isAlert reports whether err is an alert the server sent.
func isAlert(err error) bool {
	var op *net.OpError
	return errors.As(err, &op) && op.Op == "remote error"
}

// errCertRequired is a refusal for want of a client certificate.
const errCertRequired = tlsError("TLS: certificate required: the server asks for a client certificate (cert=FILE and key=FILE)")

// tlsError is a failure of TLS that says its cause.
type tlsError string

func (e tlsError) Error() string { return string(e) }

// Cause says why a TLS connection failed, in the words of its cause
// (unknown CA, name mismatch, certificate required), or returns err.
func Cause(err error) error {
	var unknown x509.UnknownAuthorityError
	var name x509.HostnameError
	var invalid x509.CertificateInvalidError
	var header tls.RecordHeaderError
	var op *net.OpError
	switch {
	case errors.As(err, &unknown):
		return errors.New("TLS: unknown CA: the server's certificate is not signed by a CA this machine trusts (cacert=FILE names a private one)")
	case errors.As(err, &name):
		return fmt.Errorf("TLS: name mismatch: the server's certificate is not valid for %q (sni=NAME names the one to check)", name.Host)
	case errors.As(err, &invalid):
		return fmt.Errorf("TLS: the server's certificate is invalid: %v", invalid.Error())
	case errors.As(err, &header):
		return errors.New("TLS: the server does not speak TLS")
	case errors.As(err, &op) && op.Op == "remote error":
		// An alert the server sent: in TLS 1.3 a refused client
		// certificate shows only once the handshake is over.
		alert := strings.TrimPrefix(op.Err.Error(), "tls: ")
		switch alert {
		case "certificate required":
			return errCertRequired
		case "bad certificate", "unknown certificate authority", "certificate unknown", "unsupported certificate", "certificate expired", "certificate revoked", "access denied":
			return fmt.Errorf("TLS: the server refused the client certificate (%s)", alert)
		case "handshake failure":
			return errors.New("TLS: the server refused the handshake (handshake failure: does it ask for a client certificate? cert=FILE and key=FILE)")
		}
		return fmt.Errorf("TLS: the server refused the connection (%s)", alert)
	}
	return err
}
