package redistest

import (
	"bufio"
	"crypto/tls"
	"crypto/x509"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// Do sends one command to the server, on a new connection (as the
// password's user, when it has one; with TLS, with the client
// certificate), and returns its reply: a string, an int64, nil, or a
// []any of those. An error reply is an error.
func (s *Server) Do(args ...string) (any, error) {
	c, err := s.dial()
	if err != nil {
		return nil, err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(10 * time.Second))
	r := bufio.NewReader(c)
	if s.cfg.Password != "" {
		if _, err := send(c, r, "AUTH", s.cfg.Password); err != nil {
			return nil, err
		}
	}
	return send(c, r, args...)
}

// Replicated waits until n replicas have every write the server took so
// far: WAIT counts the acknowledgements of its own connection's writes,
// so it follows one, and a replica that has just synchronised gets none
// until it acknowledges (about a second).
func (s *Server) Replicated(n int) error {
	c, err := s.dial()
	if err != nil {
		return err
	}
	defer c.Close()
	c.SetDeadline(time.Now().Add(20 * time.Second))
	r := bufio.NewReader(c)
	if s.cfg.Password != "" {
		if _, err := send(c, r, "AUTH", s.cfg.Password); err != nil {
			return err
		}
	}
	if _, err := send(c, r, "INCR", "redistest:replicated"); err != nil {
		return err
	}
	got, err := send(c, r, "WAIT", strconv.Itoa(n), "15000")
	if err != nil {
		return err
	}
	if got != int64(n) {
		return fmt.Errorf("%v of %d replicas have the writes", got, n)
	}
	return nil
}

// DoString is Do for a reply that is a string, such as INFO's.
func (s *Server) DoString(args ...string) (string, error) {
	v, err := s.Do(args...)
	if err != nil {
		return "", err
	}
	str, ok := v.(string)
	if !ok {
		return "", fmt.Errorf("%s: reply %v is not a string", args[0], v)
	}
	return str, nil
}

// Info returns field of INFO's section, such as "role" of "replication".
func (s *Server) Info(section, field string) (string, error) {
	info, err := s.DoString("INFO", section)
	if err != nil {
		return "", err
	}
	for line := range strings.SplitSeq(info, "\n") {
		if v, ok := strings.CutPrefix(strings.TrimSpace(line), field+":"); ok {
			return v, nil
		}
	}
	return "", nil
}

func (s *Server) dial() (net.Conn, error) {
	d := &net.Dialer{Timeout: 5 * time.Second}
	if !s.cfg.TLS {
		return d.Dial("tcp", s.Addr())
	}
	pem, err := os.ReadFile(s.Certs.CA)
	if err != nil {
		return nil, err
	}
	cfg := &tls.Config{RootCAs: x509.NewCertPool()}
	cfg.RootCAs.AppendCertsFromPEM(pem)
	pair, err := tls.LoadX509KeyPair(s.Certs.ClientCert, s.Certs.ClientKey)
	if err != nil {
		return nil, err
	}
	cfg.Certificates = []tls.Certificate{pair}
	return tls.DialWithDialer(d, "tcp", s.Addr(), cfg)
}

func send(w io.Writer, r *bufio.Reader, args ...string) (any, error) {
	var b strings.Builder
	fmt.Fprintf(&b, "*%d\r\n", len(args))
	for _, a := range args {
		fmt.Fprintf(&b, "$%d\r\n%s\r\n", len(a), a)
	}
	if _, err := io.WriteString(w, b.String()); err != nil {
		return nil, err
	}
	return reply(r)
}

func reply(r *bufio.Reader) (any, error) {
	line, err := r.ReadString('\n')
	if err != nil {
		return nil, err
	}
	line = strings.TrimSuffix(line, "\r\n")
	if line == "" {
		return nil, errors.New("redistest: empty reply line")
	}
	body := line[1:]
	switch line[0] {
	case '+':
		return body, nil
	case '-':
		return nil, errors.New(body)
	case ':':
		return strconv.ParseInt(body, 10, 64)
	case '$':
		n, err := strconv.Atoi(body)
		if err != nil || n < 0 {
			return nil, err
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(r, buf); err != nil {
			return nil, err
		}
		return string(buf[:n]), nil
	case '*':
		n, err := strconv.Atoi(body)
		if err != nil || n < 0 {
			return nil, err
		}
		items := make([]any, n)
		for i := range items {
			if items[i], err = reply(r); err != nil {
				return nil, err
			}
		}
		return items, nil
	}
	return nil, fmt.Errorf("redistest: unknown reply %q", line)
}

// waitFor polls ok every 20ms until it holds, or fails after limit with
// what it last said.
func waitFor(limit time.Duration, what string, ok func() (bool, error)) error {
	var last error
	for end := time.Now().Add(limit); time.Now().Before(end); time.Sleep(20 * time.Millisecond) {
		done, err := ok()
		if done {
			return nil
		}
		last = err
	}
	if last != nil {
		return fmt.Errorf("%s: not within %v: %v", what, limit, last)
	}
	return fmt.Errorf("%s: not within %v", what, limit)
}
