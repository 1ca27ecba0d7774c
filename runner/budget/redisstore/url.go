package redisstore

import (
	"crypto/tls"
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// Kind is how a store URL reaches the server that keeps the budget.
type Kind int

const (
	// Server is redis:// or rediss://: one server, or any node of a
	// Redis Cluster, whose redirects are followed.
	Server Kind = iota
	// Sentinel is redis+sentinel:// or rediss+sentinel://: the primary
	// that the Sentinels name.
	Sentinel
	// Socket is unix://: one server on a Unix socket.
	Socket
)

// Default ports of a server and of a Sentinel.
const (
	serverPort   = 6379
	sentinelPort = 26379
)

// Address is where a store is and how to reach it: a parsed store URL.
//
//	redis://[[USER]:PASSWORD@]HOST[:PORT][/DB][?PARAMS]       (rediss:// for TLS)
//	redis+sentinel://[[USER]:PASSWORD@]HOST[:PORT][,HOST[:PORT]...]/MASTER[/DB][?PARAMS]
//	unix://[[USER]:PASSWORD@]/PATH[?db=N]
//
// PARAMS are cacert, cert, key and sni (with TLS) and timeout.
type Address struct {
	Kind Kind
	// TLS is true for rediss:// and rediss+sentinel://.
	TLS bool
	// Hosts are "host:port": the server, or the Sentinels in the order
	// given.
	Hosts []string
	// Master names the Sentinels' primary; Path is the Unix socket.
	Master, Path string
	// User and Password log in (AUTH) when Password is not empty; User
	// may be empty (the default user).
	User, Password string
	// DB is the database number SELECTed, 0 by default.
	DB int
	// CACert, Cert and Key are the files of the TLS parameters; SNI is
	// the name the server's certificate is checked against (default:
	// the host).
	CACert, Cert, Key, SNI string
	// Timeout bounds each call (timeout=); zero is DefaultTimeout.
	Timeout time.Duration

	tls *tls.Config // by LoadTLS, from CACert, Cert and Key
}

// The forms of a store URL, for hints.
const (
	formSentinel = "redis+sentinel://[[USER]:PASSWORD@]HOST[:PORT][,HOST[:PORT]...]/MASTER[/DB]"
	formSocket   = "unix:///PATH/TO/redis.sock[?db=N]"
)

// ParseURL parses a store URL; LoadTLS then reads the files it names.
// Its errors never quote the password, nor the URL itself, which may
// hold one.
func ParseURL(raw string) (Address, error) {
	if raw == "" {
		return Address{}, errors.New("empty URL")
	}
	scheme, rest, ok := strings.Cut(raw, "://")
	var a Address
	switch {
	case !ok:
		return Address{}, errors.New("must start with redis://, rediss://, redis+sentinel:// or unix://")
	case scheme == "redis":
	case scheme == "rediss":
		a.TLS = true
	case scheme == "redis+sentinel":
		a.Kind = Sentinel
	case scheme == "rediss+sentinel":
		a.Kind, a.TLS = Sentinel, true
	case scheme == "unix":
		a.Kind = Socket
	case isWord(scheme):
		return Address{}, fmt.Errorf("must start with redis://, rediss://, redis+sentinel:// or unix://, got scheme %q", scheme)
	default:
		return Address{}, errors.New("must start with redis://, rediss://, redis+sentinel:// or unix://")
	}
	authority, rest := rest, ""
	if i := strings.IndexAny(authority, "/?#"); i >= 0 {
		authority, rest = authority[:i], authority[i:]
	}
	if strings.Contains(rest, "@") {
		// A password with an unescaped '/', '?' or '#' in it: quote
		// nothing of what follows.
		return Address{}, errors.New("has an '@' after the host: percent-encode a '/', '?', '#' or '@' in the password (%2F, %3F, %23, %40)")
	}
	if i := strings.LastIndexByte(authority, '@'); i >= 0 {
		if err := a.parseUser(authority[:i]); err != nil {
			return Address{}, err
		}
		authority = authority[i+1:]
	}
	path, query, _ := strings.Cut(rest, "?")
	if strings.Contains(path, "#") || strings.Contains(query, "#") {
		return Address{}, errors.New("takes no fragment ('#')")
	}
	var err error
	switch a.Kind {
	case Server:
		err = a.parseServer(authority, path)
	case Sentinel:
		err = a.parseSentinel(authority, path)
	case Socket:
		err = a.parseSocket(authority, path)
	}
	if err == nil {
		err = a.parseQuery(query)
	}
	if err != nil {
		return Address{}, err
	}
	return a, nil
}

// parseUser reads USER:PASSWORD, percent-decoded.
func (a *Address) parseUser(info string) error {
	user, pass, _ := strings.Cut(info, ":")
	var err error
	if a.User, err = url.PathUnescape(user); err != nil {
		return errors.New("the user name is not percent-encoded right")
	}
	if a.Password, err = url.PathUnescape(pass); err != nil {
		return errors.New("the password is not percent-encoded right")
	}
	if a.Password == "" {
		return errors.New("names a user without a password: use redis://USER:PASSWORD@HOST, or redis://:PASSWORD@HOST for the default user")
	}
	return nil
}

func (a *Address) parseServer(authority, path string) error {
	hp, err := hostPort(authority, serverPort)
	if err != nil {
		return err
	}
	a.Hosts = []string{hp}
	return a.parseDB(strings.TrimPrefix(path, "/"))
}

func (a *Address) parseSentinel(authority, path string) error {
	for h := range strings.SplitSeq(authority, ",") {
		hp, err := hostPort(h, sentinelPort)
		if err != nil {
			return err
		}
		a.Hosts = append(a.Hosts, hp)
	}
	master, db, _ := strings.Cut(strings.TrimPrefix(path, "/"), "/")
	var err error
	if a.Master, err = url.PathUnescape(master); err != nil || a.Master == "" {
		return fmt.Errorf("names no primary: use %s", formSentinel)
	}
	return a.parseDB(db)
}

func (a *Address) parseSocket(authority, path string) error {
	if authority != "" {
		return fmt.Errorf("takes no host, only a path: use %s", formSocket)
	}
	p, err := url.PathUnescape(path)
	if err != nil || !strings.HasPrefix(p, "/") || p == "/" {
		return fmt.Errorf("names no socket: use %s", formSocket)
	}
	a.Path = p
	return nil
}

// hostPort checks HOST[:PORT] and returns it as "host:port".
func hostPort(s string, port int) (string, error) {
	host, p := s, ""
	if strings.HasPrefix(s, "[") {
		end := strings.IndexByte(s, ']')
		if end < 0 {
			return "", errors.New("an IPv6 address has no closing ']'")
		}
		host, p = s[1:end], s[end+1:]
		if p != "" && p[0] != ':' {
			return "", fmt.Errorf("host %q is not followed by a port", s[:end+1])
		}
		if net.ParseIP(host) == nil {
			return "", fmt.Errorf("%q is not an IPv6 address", host)
		}
	} else {
		if i := strings.LastIndexByte(s, ':'); i >= 0 {
			host, p = s[:i], s[i:]
		}
		if host == "" {
			return "", errors.New("names no host")
		}
		for _, r := range host {
			if !isHostRune(r) {
				return "", fmt.Errorf("host %q has a character a host name cannot have", host)
			}
		}
	}
	if p != "" {
		if p == ":" {
			return "", errors.New("port is empty")
		}
		n, err := strconv.Atoi(p[1:])
		if err != nil || n < 1 || n > 65535 || strconv.Itoa(n) != p[1:] {
			return "", fmt.Errorf("port must be from 1 to 65535, got %q", p[1:])
		}
		port = n
	}
	return net.JoinHostPort(host, strconv.Itoa(port)), nil
}

func isHostRune(r rune) bool {
	return r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '.' || r == '-' || r == '_'
}

// isWord reports whether s is short letters, digits, '+', '-' and '.',
// which a message may quote: it cannot be a password.
func isWord(s string) bool {
	if s == "" || len(s) > 20 {
		return false
	}
	for _, r := range s {
		if !(r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' || r == '+' || r == '-' || r == '.') {
			return false
		}
	}
	return true
}

// parseDB reads a database number; empty is 0.
func (a *Address) parseDB(db string) error {
	if db == "" {
		return nil
	}
	n, err := strconv.Atoi(db)
	if err != nil || n < 0 || strconv.Itoa(n) != db {
		return fmt.Errorf("database must be a non-negative integer, got %q", db)
	}
	a.DB = n
	return nil
}
