package redisstore

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"
)

// askSentinels asks the Sentinels in turn for the primary of the URL's
// master, and connects to it: a Sentinel that cannot be reached, knows no
// primary, or names one that cannot be reached passes the question to
// the next. The one that named a primary is asked first from then on.
// Each Sentinel has its share of the time left, so that one that hangs
// leaves time to the others.
func (cl *client) askSentinels(ctx context.Context) (*conn, error) {
	var why []string
	hosts := cl.addr.Hosts
	for i, s := range hosts {
		sctx, cancel := share(ctx, len(hosts)-i)
		node, err := cl.askSentinel(sctx, s)
		if err != nil {
			cancel()
			why = append(why, fmt.Sprintf("Sentinel %s: %v", s, err))
			continue
		}
		c, err := cl.connTo(sctx, node)
		cancel()
		var u *unreachable
		if errors.As(err, &u) {
			why = append(why, fmt.Sprintf("Sentinel %s names %s: %v", s, node, err))
			continue
		}
		if err != nil {
			return nil, fmt.Errorf("the primary %s: %w", node, err)
		}
		cl.node, cl.named = node, time.Now()
		if i > 0 {
			h := slices.Clone(hosts)
			cl.addr.Hosts = append(append([]string{s}, h[:i]...), h[i+1:]...)
		}
		return c, nil
	}
	return nil, fmt.Errorf("no primary of %q known: %s", cl.addr.Master, strings.Join(why, "; "))
}

// sentinel returns the connection to Sentinel s, opening one when there
// is none or the Sentinel closed it. It sends the URL's password, which a
// Sentinel without one ignores.
func (cl *client) sentinel(ctx context.Context, s string) (*conn, error) {
	if c := cl.askers[s]; c != nil {
		if !c.stale() {
			return c, nil
		}
		c.close()
		delete(cl.askers, s)
	}
	nc, err := cl.connect(ctx, s)
	if err != nil {
		return nil, err
	}
	c := newConn(nc, s)
	if cl.addr.Password != "" {
		// A Sentinel that asks for no password refuses AUTH; one that
		// asks for another refuses the question.
		var se serverError
		if _, err := c.do(ctx, auth(cl.addr)...); err != nil && !errors.As(err, &se) {
			c.close()
			return nil, tlsCause(err)
		}
	}
	cl.askers[s] = c
	return c, nil
}

// share returns ctx bounded by a 1/n share of the time it has left.
func share(ctx context.Context, n int) (context.Context, context.CancelFunc) {
	d, ok := ctx.Deadline()
	if !ok || n <= 1 {
		return context.WithCancel(ctx)
	}
	return context.WithTimeout(ctx, time.Until(d)/time.Duration(n))
}

// askSentinel asks Sentinel s for the address of the master's primary.
func (cl *client) askSentinel(ctx context.Context, s string) (string, error) {
	c, err := cl.sentinel(ctx, s)
	if err != nil {
		return "", err
	}
	v, err := c.do(ctx, "SENTINEL", "GET-MASTER-ADDR-BY-NAME", cl.addr.Master)
	var se serverError
	if err != nil && !errors.As(err, &se) {
		c.close()
		delete(cl.askers, s)
		return "", brokenAfterSend(err)
	}
	if err != nil {
		return "", err
	}
	if v == nil {
		return "", fmt.Errorf("knows no master named %q", cl.addr.Master)
	}
	f, _ := v.([]any)
	if len(f) == 2 {
		host, _ := f[0].(string)
		port, _ := f[1].(string)
		if node, ok := nodeName(host, port, s); ok && host != "" {
			return node, nil
		}
	}
	return "", errors.New("unexpected reply to SENTINEL GET-MASTER-ADDR-BY-NAME")
}
