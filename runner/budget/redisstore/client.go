package redisstore

import (
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"strconv"
	"syscall"
	"time"
)

// maxHops bounds the redirections and new primaries one call follows.
const maxHops = 5

// recheck is how long the primary the Sentinels named is taken on trust:
// a call after that asks them again, since a primary that a failover
// demoted may accept writes for seconds before it turns replica.
const recheck = time.Second

// client sends a store's commands to the server that holds its budget's
// keys: the URL's one server, the node of a Redis Cluster that serves the
// keys' hash slot, or the primary the Sentinels name. It keeps one
// connection to each server it talks to. The caller serialises its calls.
type client struct {
	addr    Address
	slot    int              // the hash slot of the budget's keys
	conns   map[string]*conn // by node: "host:port", or the socket's path
	node    string           // the server of the budget's keys; "" until known
	nodes   []string         // a Cluster's nodes known, the URL's first
	cluster bool             // a redirection showed the server is a Cluster's
	named   time.Time        // when the Sentinels last named node
	askers  map[string]*conn // connections to the Sentinels, by "host:port"
}

func newClient(a Address, slot int) *client {
	cl := &client{addr: a, slot: slot, conns: map[string]*conn{}, askers: map[string]*conn{}}
	switch a.Kind {
	case Server:
		cl.nodes = []string{a.Hosts[0]}
	case Socket:
		cl.nodes = []string{a.Path}
	}
	return cl
}

// unreachable is a failure to connect or log in to a server, before any
// command that changes something was sent: another server may be asked.
type unreachable struct{ err error }

func (e *unreachable) Error() string { return e.err.Error() }
func (e *unreachable) Unwrap() error { return e.err }

// eval runs sc on key with args where key lives: by its SHA, loading the
// script where the server does not know it, and following a Cluster's
// MOVED and ASK and a new primary of the Sentinels. A command is sent
// again only when the server refused it without running it (a
// redirection, READONLY, TRYAGAIN, NOSCRIPT), never once a connection
// broke after it was sent: it may have run.
func (cl *client) eval(ctx context.Context, sc script, key string, args []string) (any, error) {
	cmd := append([]string{"EVALSHA", sc.sha, "1", key}, args...)
	ask, reasked := "", false
	for hop := 0; ; hop++ {
		var c *conn
		var err error
		if ask != "" {
			c, err = cl.connTo(ctx, ask)
		} else {
			c, err = cl.primary(ctx)
		}
		if err != nil {
			return nil, err
		}
		v, err := cl.run(ctx, c, sc, cmd, ask != "")
		ask = ""
		var se serverError
		if !errors.As(err, &se) {
			if err != nil {
				cl.drop(c)
				err = brokenAfterSend(err)
			}
			return v, err
		}
		if hop == maxHops {
			return nil, fmt.Errorf("%v (after %d redirections)", err, hop)
		}
		switch se.prefix() {
		case "MOVED", "ASK":
			node, ok := redirection(se, c.node)
			if !ok {
				return nil, err
			}
			cl.cluster = true
			cl.learn(node)
			if se.prefix() == "ASK" {
				ask = node // for this command only: the slot is moving there
			} else {
				cl.node = node
			}
		case "TRYAGAIN":
			// A slot in the middle of moving: it ran nothing.
			select {
			case <-ctx.Done():
				return nil, err
			case <-time.After(10 * time.Millisecond):
			}
		case "READONLY", "MASTERDOWN":
			// A primary turned replica: the Sentinels name another.
			if cl.addr.Kind != Sentinel || reasked {
				return nil, err
			}
			reasked, cl.node = true, ""
		default:
			return nil, err
		}
	}
}

// run sends cmd, an EVALSHA of sc, on c, after ASKING when asking, and
// loads sc when the server does not know it.
func (cl *client) run(ctx context.Context, c *conn, sc script, cmd []string, asking bool) (any, error) {
	send := func() (any, error) {
		if asking {
			if _, err := c.do(ctx, "ASKING"); err != nil {
				return nil, err
			}
		}
		return c.do(ctx, cmd...)
	}
	v, err := send()
	var se serverError
	if errors.As(err, &se) && se.prefix() == "NOSCRIPT" {
		if _, err = c.do(ctx, "SCRIPT", "LOAD", sc.src); err != nil {
			return nil, err
		}
		v, err = send()
	}
	return v, err
}

// brokenAfterSend says what a connection that broke after a command was
// sent on it means.
func brokenAfterSend(err error) error {
	if errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) || errors.Is(err, syscall.EPIPE) {
		// The call may have run: it is not sent again.
		return errors.New("the server closed the connection")
	}
	return tlsCause(err)
}

// primary returns the connection to the server of the budget's keys,
// finding that server first when it is not known yet or cannot be
// reached.
func (cl *client) primary(ctx context.Context) (*conn, error) {
	switch {
	case cl.addr.Kind != Sentinel:
		if cl.node == "" {
			cl.node = cl.nodes[0]
		}
	case cl.node == "":
		return cl.askSentinels(ctx)
	case time.Since(cl.named) > recheck:
		// With half the time left: when no Sentinel answers, the
		// primary known goes on serving.
		sctx, cancel := share(ctx, 2)
		c, err := cl.askSentinels(sctx)
		cancel()
		if err == nil {
			return c, nil
		}
	}
	c, err := cl.connTo(ctx, cl.node)
	var u *unreachable
	if err == nil || !errors.As(err, &u) {
		return c, err
	}
	// Nothing was sent: ask where the keys are now.
	switch {
	case cl.addr.Kind == Sentinel:
		cl.node = ""
		return cl.askSentinels(ctx)
	case cl.cluster:
		if node := cl.refresh(ctx, cl.node); node != "" {
			cl.node = node
			return cl.connTo(ctx, node)
		}
	}
	return nil, err
}

// connTo returns the connection to node, opening one when there is none
// or when the server has closed it meanwhile.
func (cl *client) connTo(ctx context.Context, node string) (*conn, error) {
	if c := cl.conns[node]; c != nil {
		if !c.stale() {
			return c, nil
		}
		cl.drop(c)
	}
	c, err := cl.dial(ctx, node)
	if err != nil {
		return nil, err
	}
	cl.conns[node] = c
	return c, nil
}

// dial connects to node and logs in: AUTH when the URL has a password,
// SELECT when its database is not 0. Its failures are *unreachable, but
// for an error the server answered.
func (cl *client) dial(ctx context.Context, node string) (*conn, error) {
	nc, err := cl.connect(ctx, node)
	if err != nil {
		return nil, &unreachable{err}
	}
	c := newConn(nc, node)
	a := cl.addr
	login := func(what string, args ...string) error {
		_, err := c.do(ctx, args...)
		var se serverError
		switch {
		case errors.As(err, &se):
			return fmt.Errorf("%s: %w", what, err)
		case err != nil:
			return &unreachable{tlsCause(refused(c.c, err))}
		}
		return nil
	}
	switch {
	case a.Password != "":
		err = login("login", auth(a)...)
	case a.TLS && a.DB == 0:
		// A server that refuses the client's certificate says so only
		// after a TLS 1.3 handshake: find out before sending what
		// cannot be sent again.
		err = login("ping", "PING")
	}
	if err == nil && a.DB != 0 {
		err = login("select database "+strconv.Itoa(a.DB), "SELECT", strconv.Itoa(a.DB))
	}
	if err != nil {
		c.close()
		return nil, err
	}
	return c, nil
}

// connect opens a connection to node, by TCP or on the socket, and with
// TLS when the URL says so.
func (cl *client) connect(ctx context.Context, node string) (net.Conn, error) {
	network := "tcp"
	if cl.addr.Kind == Socket {
		network = "unix"
	}
	if cl.addr.TLS {
		return cl.connectTLS(ctx, network, node)
	}
	var d net.Dialer
	return d.DialContext(ctx, network, node)
}

// auth returns the AUTH command of a's user and password.
func auth(a Address) []string {
	if a.User != "" {
		return []string{"AUTH", a.User, a.Password}
	}
	return []string{"AUTH", a.Password}
}

// drop closes c and forgets it.
func (cl *client) drop(c *conn) {
	c.close()
	if cl.conns[c.node] == c {
		delete(cl.conns, c.node)
	}
}

// close closes every connection.
func (cl *client) close() error {
	var first error
	for _, m := range []map[string]*conn{cl.conns, cl.askers} {
		for _, c := range m {
			if err := c.close(); err != nil && first == nil {
				first = err
			}
		}
		clear(m)
	}
	return first
}
