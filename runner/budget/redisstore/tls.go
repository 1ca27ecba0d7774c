package redisstore

import (
	"errors"
	"net"
)

// HelperName is the program that carries a TLS connection for retry
// (cmd/retry-tls), which itself links no crypto: Address.LoadTLS looks
// for it beside the running program, then on PATH.
const HelperName = "retry-tls"

// ErrNoHelper is the failure of LoadTLS where HelperName is neither
// beside the running program nor on PATH.
var ErrNoHelper = errors.New("needs " + HelperName + ", the TLS helper, installed beside retry or on PATH")

// serverName returns the name the certificate of node's server is
// checked against: sni=, else node's host.
func (a Address) serverName(node string) string {
	if a.SNI != "" {
		return a.SNI
	}
	host, _, _ := net.SplitHostPort(node)
	return host
}
