package redistest

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
)

// ErrNoOpenSSL says that openssl, which makes the certificates, is not
// installed: a test then skips.
var ErrNoOpenSSL = errors.New("openssl is not installed (Debian package openssl); skipping")

// Certs are PEM files that openssl made for one test: a CA, a server
// certificate for 127.0.0.1 and localhost and a client certificate it
// signed, and another CA that signed nothing of these.
type Certs struct {
	CA, ServerCert, ServerKey, ClientCert, ClientKey, OtherCA string
}

// MakeCerts makes new certificates in dir, with openssl, as an operator
// would: P-256 keys, valid for a day.
func MakeCerts(dir string) (*Certs, error) {
	if _, err := exec.LookPath("openssl"); err != nil {
		return nil, ErrNoOpenSSL
	}
	p := func(name string) string { return filepath.Join(dir, name) }
	c := &Certs{
		CA: p("ca.pem"), ServerCert: p("server.pem"), ServerKey: p("server.key"),
		ClientCert: p("client.pem"), ClientKey: p("client.key"), OtherCA: p("other-ca.pem"),
	}
	ext := p("ext.cnf")
	if err := os.WriteFile(ext, []byte("[server]\nsubjectAltName = IP:127.0.0.1, DNS:localhost\nextendedKeyUsage = serverAuth\n[client]\nextendedKeyUsage = clientAuth\n"), 0o600); err != nil {
		return nil, err
	}
	newKey := []string{"-newkey", "ec", "-pkeyopt", "ec_paramgen_curve:prime256v1", "-nodes"}
	ca := func(cert, key, name string) []string {
		return append(append([]string{"req", "-x509"}, newKey...), "-keyout", key, "-out", cert, "-days", "1", "-subj", "/CN="+name,
			"-addext", "basicConstraints=critical,CA:TRUE", "-addext", "keyUsage=critical,keyCertSign,cRLSign")
	}
	signed := func(cert, key, name, section string) [][]string {
		csr := cert + ".csr"
		return [][]string{
			append(append([]string{"req", "-new"}, newKey...), "-keyout", key, "-out", csr, "-subj", "/CN="+name),
			{"x509", "-req", "-in", csr, "-CA", c.CA, "-CAkey", p("ca.key"), "-CAcreateserial", "-out", cert, "-days", "1", "-extfile", ext, "-extensions", section},
		}
	}
	steps := [][]string{ca(c.CA, p("ca.key"), "retry test CA"), ca(c.OtherCA, p("other-ca.key"), "another CA")}
	steps = append(steps, signed(c.ServerCert, c.ServerKey, "127.0.0.1", "server")...)
	steps = append(steps, signed(c.ClientCert, c.ClientKey, "retry test client", "client")...)
	for _, args := range steps {
		if out, err := exec.Command("openssl", args...).CombinedOutput(); err != nil {
			return nil, fmt.Errorf("openssl %s: %v: %s", args[0], err, strings.TrimSpace(string(out)))
		}
	}
	return c, nil
}
