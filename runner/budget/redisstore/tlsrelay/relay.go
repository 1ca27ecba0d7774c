package tlsrelay

import (
	"errors"
	"io"
	"net"
	"os"
	"syscall"
	"time"
)

// errLocalGone is the end of the local side of a relay.
var errLocalGone = errors.New("the local side ended")

// Relay copies bytes both ways between local and c until either side
// ends. It returns nil, having closed both, when local ended, or when
// the server closed the connection as a server does (end of stream,
// reset). Else it returns why the TLS connection failed, in the words of
// its cause, which for a failure before the server's first byte
// includes what the handshake told of the client certificate (see
// Conn.Refused), and leaves local open, so that the caller can say why
// before local's other end sees the end.
func Relay(local net.Conn, c *Conn) error {
	down := make(chan error, 1)
	up := make(chan error, 1)
	go func() { down <- c.copyDown(local) }()
	go func() { up <- copyUp(c, local) }()
	var err error
	select {
	case err = <-down:
	case err = <-up:
		if err != errLocalGone {
			// Writing to the server failed: an alert it sent may
			// say why.
			c.SetReadDeadline(time.Now().Add(50 * time.Millisecond))
			if derr := <-down; isAlert(derr) {
				err = derr
			}
		}
	}
	if why := c.cause(err); why != nil {
		return why // local stays open until the caller has said why
	}
	local.Close()
	// A close_notify for the server, without waiting on one that does
	// not read.
	c.SetDeadline(time.Now().Add(100 * time.Millisecond))
	c.Close()
	return nil
}

// copyDown copies what the server sends to local, and returns the
// error that ended the read (io.EOF included), or errLocalGone.
func (c *Conn) copyDown(local net.Conn) error {
	buf := make([]byte, 16<<10)
	for {
		n, err := c.Read(buf)
		if n > 0 {
			c.heard.Store(true)
			if _, werr := local.Write(buf[:n]); werr != nil {
				return errLocalGone
			}
		}
		if err != nil {
			return err
		}
	}
}

// copyUp copies what local sends to the server, and returns the error
// of a write that failed, or errLocalGone.
func copyUp(c *Conn, local net.Conn) error {
	buf := make([]byte, 16<<10)
	for {
		n, err := local.Read(buf)
		if n > 0 {
			if _, werr := c.Write(buf[:n]); werr != nil {
				return werr
			}
		}
		if err != nil {
			return errLocalGone
		}
	}
}

// cause says what err, the end of a relay on c, means: nil for an end
// that is no failure of TLS.
func (c *Conn) cause(err error) error {
	switch {
	case err == errLocalGone:
		return nil
	case isAlert(err):
		return Cause(err)
	case !c.heard.Load():
		if r := c.firstRefusal(err); r != err {
			return r
		}
	}
	if closed(err) {
		return nil
	}
	return Cause(err)
}

// closed reports whether err is a connection's end as a server ends one.
func closed(err error) bool {
	return errors.Is(err, io.EOF) || errors.Is(err, io.ErrUnexpectedEOF) || errors.Is(err, syscall.ECONNRESET) ||
		errors.Is(err, syscall.EPIPE) || errors.Is(err, net.ErrClosed) || errors.Is(err, os.ErrDeadlineExceeded)
}
