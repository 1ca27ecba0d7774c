package redisstore

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"net"
	"os"
	"strconv"
	"strings"
	"time"
)

// maxReply bounds one bulk string or array read from the server: retry's
// replies are a few integers.
const maxReply = 1 << 20

// serverError is an error reply from the server, such as
// "NOSCRIPT No matching script" or "WRONGPASS invalid username-password
// pair": it never quotes what was sent.
type serverError string

func (e serverError) Error() string { return string(e) }

// prefix returns the error's code: its first word.
func (e serverError) prefix() string {
	code, _, _ := strings.Cut(string(e), " ")
	return code
}

// conn is one connection to the server, speaking the part of RESP2 that
// retry needs: commands as arrays of bulk strings; replies that are simple
// strings, errors, integers, bulk strings and arrays of those.
type conn struct {
	c    net.Conn
	node string // "host:port", or a socket's path
	r    *bufio.Reader
	w    *bufio.Writer
	used time.Time // when the last reply came
}

// idle is how long a connection goes unused before stale looks at it.
const idle = time.Second

// newConn returns a connection on nc to node.
func newConn(nc net.Conn, node string) *conn {
	return &conn{c: nc, node: node, r: bufio.NewReaderSize(nc, 512), w: bufio.NewWriterSize(nc, 512), used: time.Now()}
}

// close closes the connection.
func (c *conn) close() error { return c.c.Close() }

// do sends one command and reads its reply. An error reply is a
// serverError and leaves the connection usable; any other error leaves it
// broken. The connection's deadline is ctx's, and cancelling ctx cuts a
// call short.
func (c *conn) do(ctx context.Context, args ...string) (any, error) {
	if d, ok := ctx.Deadline(); ok {
		c.c.SetDeadline(d)
	} else {
		c.c.SetDeadline(time.Time{})
	}
	stop := context.AfterFunc(ctx, func() { c.c.SetDeadline(time.Unix(1, 0)) })
	defer stop()
	c.w.WriteString("*" + strconv.Itoa(len(args)) + "\r\n")
	for _, a := range args {
		c.w.WriteString("$" + strconv.Itoa(len(a)) + "\r\n")
		c.w.WriteString(a)
		c.w.WriteString("\r\n")
	}
	if err := c.w.Flush(); err != nil {
		return nil, err
	}
	v, err := c.read(0)
	c.used = time.Now()
	return v, err
}

// stale reports whether the server has closed the connection while it
// was idle, or sent something unasked: a command sent on it would be
// lost, and could not be sent again, not knowing whether it ran. It
// looks only after a second unused (a server that dies between two calls
// in quick succession is rare). A plain socket is looked at without
// waiting; through TLS the look waits 100µs.
func (c *conn) stale() bool {
	if c.r.Buffered() > 0 {
		return true
	}
	if time.Since(c.used) < idle {
		return false
	}
	if found, ok := closedOrTalking(c.c); ok {
		return found
	}
	c.c.SetReadDeadline(time.Now().Add(100 * time.Microsecond))
	_, err := c.r.Peek(1)
	c.c.SetReadDeadline(time.Time{})
	return !errors.Is(err, os.ErrDeadlineExceeded)
}

// read reads one reply; depth counts the arrays it is nested in.
func (c *conn) read(depth int) (any, error) {
	line, err := c.r.ReadSlice('\n')
	if err != nil {
		if errors.Is(err, bufio.ErrBufferFull) {
			return nil, errors.New("protocol error: reply line too long")
		}
		return nil, err
	}
	if len(line) < 3 || line[len(line)-2] != '\r' {
		return nil, errors.New("protocol error: malformed reply")
	}
	kind, body := line[0], string(line[1:len(line)-2])
	switch kind {
	case '+':
		return body, nil
	case '-':
		return nil, serverError(body)
	case ':':
		n, err := strconv.ParseInt(body, 10, 64)
		if err != nil {
			return nil, errors.New("protocol error: malformed integer")
		}
		return n, nil
	case '$':
		n, err := strconv.Atoi(body)
		switch {
		case err != nil || n < -1 || n > maxReply:
			return nil, errors.New("protocol error: malformed bulk string")
		case n == -1:
			return nil, nil
		}
		buf := make([]byte, n+2)
		if _, err := io.ReadFull(c.r, buf); err != nil {
			return nil, err
		}
		return string(buf[:n]), nil
	case '*':
		n, err := strconv.Atoi(body)
		switch {
		case err != nil || n < -1 || n > maxReply || depth > 4:
			return nil, errors.New("protocol error: malformed array")
		case n == -1:
			return nil, nil
		}
		items := make([]any, n)
		var firstErr error
		for i := range items {
			items[i], err = c.read(depth + 1)
			var se serverError
			if errors.As(err, &se) {
				// An error inside an array leaves the stream in step.
				if firstErr == nil {
					firstErr = err
				}
				continue
			}
			if err != nil {
				return nil, err
			}
		}
		if firstErr != nil {
			return nil, firstErr
		}
		return items, nil
	}
	return nil, fmt.Errorf("protocol error: unknown reply type %q", kind)
}
