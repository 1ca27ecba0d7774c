package redisstore

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"net"
	"os"
	"strings"
	"time"
)

// LoadTLS reads the files of the TLS parameters, so that a bad one is
// found before anything runs, into the configuration of a's connections:
// TLS 1.2 or later, the CA of cacert= instead of the system's roots, and
// the client certificate of cert= and key=, sent whenever the server asks
// for one. Its errors name the parameter ("cacert=: ...", "cert= and
// key=: ..."). Open calls it when it was not called.
func (a *Address) LoadTLS() error {
	if !a.TLS || a.tls != nil {
		return nil
	}
	cfg := &tls.Config{MinVersion: tls.VersionTLS12}
	if a.CACert != "" {
		pem, err := os.ReadFile(a.CACert)
		if err != nil {
			return fmt.Errorf("cacert=: %v", err)
		}
		pool := x509.NewCertPool()
		if !pool.AppendCertsFromPEM(pem) {
			return fmt.Errorf("cacert=: %s holds no PEM certificate", a.CACert)
		}
		cfg.RootCAs = pool
	}
	if a.Cert != "" {
		pair, err := tls.LoadX509KeyPair(a.Cert, a.Key)
		if err != nil {
			return fmt.Errorf("cert= and key=: %v", err)
		}
		// Sent even when the server's list of CAs does not name its
		// issuer, which would make Go's default send none.
		cfg.GetClientCertificate = func(*tls.CertificateRequestInfo) (*tls.Certificate, error) { return &pair, nil }
	}
	a.tls = cfg
	return nil
}

// connectTLS opens a connection to node on network and completes a TLS
// handshake that checks the server's certificate for sni=, else node's
// host, within ctx. Its errors name their cause (see tlsCause).
func (cl *client) connectTLS(ctx context.Context, network, node string) (net.Conn, error) {
	a := &cl.addr
	if err := a.LoadTLS(); err != nil {
		return nil, err
	}
	var d net.Dialer
	nc, err := d.DialContext(ctx, network, node)
	if err != nil {
		return nil, err
	}
	cfg := a.tls.Clone()
	cfg.ServerName = a.SNI
	if cfg.ServerName == "" {
		cfg.ServerName, _, _ = net.SplitHostPort(node)
	}
	tc := &tlsConn{}
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
		return nil, tlsCause(err)
	}
	return tc, nil
}

// tlsConn is a TLS connection, and what its handshake told of the client
// certificate: whether the server asked for one, and whether one was
// sent.
type tlsConn struct {
	*tls.Conn
	asked, sent bool
}

// refused returns why the server closed nc, a connection that failed
// with err at its first exchange: in TLS 1.3 the server checks the
// client's certificate after the client's handshake is over, so a
// refusal shows only then, as an alert (which a write that failed first
// may hide) or as a closed connection. Else it returns err.
func refused(nc net.Conn, err error) error {
	tc, ok := nc.(*tlsConn)
	if !ok {
		return err
	}
	tc.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
	var buf [1]byte
	_, rerr := tc.Read(buf[:])
	var op *net.OpError
	switch {
	case errors.As(rerr, &op) && op.Op == "remote error":
		return rerr
	case tc.asked && !tc.sent:
		return errCertRequired
	case tc.asked:
		return fmt.Errorf("TLS: the server refused the client certificate (%v)", err)
	}
	return err
}

// errCertRequired is a refusal for want of a client certificate.
const errCertRequired = tlsError("TLS: certificate required: the server asks for a client certificate (cert=FILE and key=FILE)")

// tlsError is a failure of TLS that says its cause.
type tlsError string

func (e tlsError) Error() string { return string(e) }

// tlsCause says why a TLS connection failed, in the words of its cause
// (unknown CA, name mismatch, certificate required, a refused client
// certificate, a server that speaks no TLS), or returns err.
func tlsCause(err error) error {
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
