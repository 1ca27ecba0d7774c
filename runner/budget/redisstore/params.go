package redisstore

import (
	"errors"
	"fmt"
	"net/url"
	"strconv"
	"strings"
	"time"
)

// parseQuery reads the URL's parameters, named as redis-cli names its
// flags: cacert, cert, key and sni with TLS, timeout, and db for a socket.
func (a *Address) parseQuery(q string) error {
	if q == "" {
		return nil
	}
	seen := map[string]bool{}
	for kv := range strings.SplitSeq(q, "&") {
		k, v, hasValue := strings.Cut(kv, "=")
		name, err := url.QueryUnescape(k)
		if err != nil {
			return errors.New("a parameter's name is not percent-encoded right")
		}
		val, err := url.QueryUnescape(v)
		if err != nil {
			return fmt.Errorf("%s= is not percent-encoded right", safeName(name))
		}
		switch name {
		case "cacert", "cert", "key", "sni", "timeout", "db":
		default:
			return fmt.Errorf("unknown parameter %s: the parameters are cacert, cert, key, sni, timeout and, with unix://, db", safeName(name))
		}
		if !hasValue || val == "" {
			return fmt.Errorf("%s= needs a value", name)
		}
		if seen[name] {
			return fmt.Errorf("%s= is given twice", name)
		}
		seen[name] = true
		switch name {
		case "cacert":
			a.CACert = val
		case "cert":
			a.Cert = val
		case "key":
			a.Key = val
		case "sni":
			a.SNI = val
		case "timeout":
			d, err := time.ParseDuration(val)
			if err != nil || d <= 0 {
				return fmt.Errorf("timeout= must be a positive duration such as 500ms or 2s, got %q", val)
			}
			a.Timeout = d
		case "db":
			if a.Kind != Socket {
				return errors.New("db= is for unix:// URLs: the database is the URL's path, as in redis://HOST/2")
			}
			if err := a.parseDB(val); err != nil {
				return err
			}
		}
	}
	for _, name := range []string{"cacert", "cert", "key", "sni"} {
		switch {
		case !seen[name] || a.TLS:
		case a.Kind == Socket:
			return fmt.Errorf("%s= is for TLS, which unix:// does not use", name)
		case a.Kind == Sentinel:
			return fmt.Errorf("%s= is for TLS: use rediss+sentinel://", name)
		default:
			return fmt.Errorf("%s= is for TLS: use rediss://", name)
		}
	}
	switch {
	case a.Cert != "" && a.Key == "":
		return errors.New("cert= needs key=, the client certificate's private key")
	case a.Key != "" && a.Cert == "":
		return errors.New("key= needs cert=, the client certificate it is the key of")
	}
	return nil
}

// safeName quotes a parameter's name when it is a word, which cannot be
// part of a password.
func safeName(name string) string {
	if isWord(name) {
		return strconv.Quote(name)
	}
	return "(not shown)"
}

// timeout returns the bound of each call.
func (a Address) timeout() time.Duration {
	if a.Timeout > 0 {
		return a.Timeout
	}
	return DefaultTimeout
}

// String returns the URL with the password replaced by "***" and without
// its parameters, for messages: it is what retry ever prints of the
// store's address.
func (a Address) String() string {
	var b strings.Builder
	if a.TLS {
		b.WriteString("rediss")
	} else if a.Kind != Socket {
		b.WriteString("redis")
	}
	switch a.Kind {
	case Sentinel:
		b.WriteString("+sentinel")
	case Socket:
		b.WriteString("unix")
	}
	b.WriteString("://")
	if a.Password != "" {
		if a.User != "" {
			b.WriteString(url.User(a.User).String())
		}
		b.WriteString(":***@")
	}
	db := strconv.Itoa(a.DB)
	switch a.Kind {
	case Server:
		b.WriteString(strings.Join(a.Hosts, ",") + "/" + db)
	case Sentinel:
		b.WriteString(strings.Join(a.Hosts, ",") + "/" + url.PathEscape(a.Master) + "/" + db)
	case Socket:
		b.WriteString(a.Path + "?db=" + db)
	}
	return b.String()
}

// Describe says, for retry explain, what kind of store the URL names,
// how it is reached and how long each call may take. It never shows the
// password, and reads nothing from the network.
func (a Address) Describe() string {
	var parts []string
	switch a.Kind {
	case Server:
		parts = append(parts, "plain or cluster: one server, or any node of a Redis Cluster")
	case Sentinel:
		n := "1 Sentinel"
		if len(a.Hosts) > 1 {
			n = strconv.Itoa(len(a.Hosts)) + " Sentinels"
		}
		parts = append(parts, fmt.Sprintf("sentinel: the primary of %q, asked of %s", a.Master, n))
	case Socket:
		parts = append(parts, "socket: one server on a Unix socket")
	}
	if a.TLS {
		t := "TLS 1.2 or later, checked against "
		if a.CACert != "" {
			t += "the CA of " + a.CACert
		} else {
			t += "the system's roots"
		}
		if a.SNI != "" {
			t += " for the name " + strconv.Quote(a.SNI)
		}
		if a.Cert != "" {
			t += ", with the client certificate " + a.Cert
		}
		parts = append(parts, t)
	}
	parts = append(parts, "timeout "+a.timeout().String()+" per call, within the deadline")
	return strings.Join(parts, "; ")
}
