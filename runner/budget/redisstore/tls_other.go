//go:build !unix

package redisstore

import (
	"context"
	"net"

	"github.com/b0a38808/retry/runner/budget/redisstore/tlsrelay"
)

// tlsSetup is how a's TLS connections are made: in process, with this
// configuration.
type tlsSetup struct{ cfg *tlsrelay.Config }

// LoadTLS reads the files of the TLS parameters, so that a bad one is
// found before anything runs, into the configuration of a's connections:
// TLS 1.2 or later, the CA of cacert= instead of the system's roots, and
// the client certificate of cert= and key=, sent whenever the server asks
// for one. Open calls it when it was not called.
func (a *Address) LoadTLS() error {
	if !a.TLS || a.tls != nil {
		return nil
	}
	cfg, err := tlsrelay.Load(tlsrelay.Files{CACert: a.CACert, Cert: a.Cert, Key: a.Key})
	if err != nil {
		return err
	}
	a.tls = &tlsSetup{cfg}
	return nil
}

// connectTLS opens a TLS connection to node on network, within ctx.
func (cl *client) connectTLS(ctx context.Context, network, node string) (net.Conn, error) {
	a := &cl.addr
	if err := a.LoadTLS(); err != nil {
		return nil, err
	}
	return a.tls.cfg.Dial(ctx, network, node, a.serverName(node))
}

// refused returns why the server closed nc, a connection that failed
// with err at its first exchange (see tlsrelay.Conn.Refused).
func refused(nc net.Conn, err error) error {
	if tc, ok := nc.(*tlsrelay.Conn); ok {
		return tc.Refused(err)
	}
	return err
}

// tlsCause says why a TLS connection failed, in the words of its cause,
// or returns err.
func tlsCause(err error) error { return tlsrelay.Cause(err) }
