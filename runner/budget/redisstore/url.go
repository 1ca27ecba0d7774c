package redisstore

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"strings"
)

// Address is where a store is and how to log in: a parsed
// redis://[[USER]:PASSWORD@]HOST[:PORT][/DB] or rediss:// (TLS) URL.
type Address struct {
	// TLS is true for rediss://.
	TLS bool
	// Host and Port are the server's; Port defaults to 6379.
	Host string
	Port int
	// User and Password log in (AUTH) when Password is not empty; User
	// may be empty (the default user).
	User, Password string
	// DB is the database number SELECTed, 0 by default.
	DB int
}

// ParseURL parses a store URL. Its errors never quote the password, nor the
// URL itself, which may hold one.
func ParseURL(raw string) (Address, error) {
	if raw == "" {
		return Address{}, errors.New("empty URL")
	}
	u, err := url.Parse(raw)
	if err != nil {
		// url.Parse's error quotes the whole URL: say only why.
		var ue *url.Error
		if errors.As(err, &ue) {
			err = ue.Err
		}
		return Address{}, fmt.Errorf("not a URL: %v", err)
	}
	var a Address
	switch u.Scheme {
	case "redis":
	case "rediss":
		a.TLS = true
	default:
		return Address{}, fmt.Errorf("must start with redis:// or rediss://, got scheme %q", u.Scheme)
	}
	if u.Opaque != "" || u.Host == "" {
		return Address{}, errors.New("names no host: use redis://HOST[:PORT][/DB]")
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return Address{}, errors.New("takes no query or fragment")
	}
	a.Host, a.Port = u.Hostname(), 6379
	if a.Host == "" {
		return Address{}, errors.New("names no host: use redis://HOST[:PORT][/DB]")
	}
	if p := u.Port(); p != "" {
		n, err := strconv.Atoi(p)
		if err != nil || n < 1 || n > 65535 {
			return Address{}, fmt.Errorf("port must be from 1 to 65535, got %q", p)
		}
		a.Port = n
	} else if strings.HasSuffix(u.Host, ":") {
		return Address{}, errors.New("port is empty")
	}
	if u.User != nil {
		a.User = u.User.Username()
		a.Password, _ = u.User.Password()
		if a.Password == "" {
			return Address{}, errors.New("names a user without a password: use redis://USER:PASSWORD@HOST, or redis://:PASSWORD@HOST for the default user")
		}
	}
	if db := strings.TrimPrefix(u.Path, "/"); db != "" {
		n, err := strconv.Atoi(db)
		if err != nil || n < 0 || strconv.Itoa(n) != db {
			return Address{}, fmt.Errorf("database must be a non-negative integer, got %q", db)
		}
		a.DB = n
	}
	return a, nil
}

// HostPort returns "host:port", as net.Dial takes it.
func (a Address) HostPort() string {
	return net.JoinHostPort(a.Host, strconv.Itoa(a.Port))
}

// String returns the URL with the password replaced by "***", for
// messages: it is what retry ever prints of the store's address.
func (a Address) String() string {
	var b strings.Builder
	b.WriteString("redis://")
	if a.TLS {
		b.Reset()
		b.WriteString("rediss://")
	}
	if a.Password != "" {
		if a.User != "" {
			b.WriteString(url.User(a.User).String())
		}
		b.WriteString(":***@")
	}
	b.WriteString(a.HostPort())
	b.WriteString("/")
	b.WriteString(strconv.Itoa(a.DB))
	return b.String()
}
