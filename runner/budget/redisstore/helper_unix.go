//go:build unix

package redisstore

import (
	"context"
	"errors"
	"io"
	"net"
	"os"
	"os/exec"
	"sync"
	"syscall"
	"time"

	"github.com/b0a38808/retry/internal/proc"
)

// helperReady is what the helper writes on its socket once the TLS
// connection is made (tlsrelay.Ready).
const helperReady = "ok\n"

// tlsError is a failure of TLS that says its cause, in the helper's
// words.
type tlsError string

func (e tlsError) Error() string { return string(e) }

// helper is a running TLS helper: what it said on stderr, once it has
// ended, and its reaping.
type helper struct {
	cmd    *exec.Cmd
	ended  chan struct{} // closed when its stderr is at its end: it has exited
	why    string        // its stderr's first line, set before ended closes
	reaped sync.Once
}

// helperConn is the socket to a TLS helper, which relays what is written
// on it to the server over TLS, and back. Its errors are the causes the
// helper names, where it names one.
type helperConn struct {
	*net.UnixConn
	h *helper
}

// startHelper starts the TLS helper at path with args and its stdin a
// socket of a pair, the other end returned once the helper has written
// helperReady there, within ctx. The helper runs in a process group
// of its own, so that an interrupt from the terminal does not cut a
// connection retry still needs (to release its slots); it ends when the
// socket ends, as when retry dies, and on Linux with retry too (the
// parent-death signal of proc.Prepare).
func startHelper(ctx context.Context, path string, args []string) (net.Conn, error) {
	syscall.ForkLock.RLock()
	fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
	if err == nil {
		syscall.CloseOnExec(fds[0])
		syscall.CloseOnExec(fds[1])
	}
	syscall.ForkLock.RUnlock()
	if err != nil {
		return nil, os.NewSyscallError("socketpair", err)
	}
	mine, theirs := os.NewFile(uintptr(fds[0]), "tls"), os.NewFile(uintptr(fds[1]), "tls")
	r, w, err := os.Pipe()
	if err != nil {
		mine.Close()
		theirs.Close()
		return nil, err
	}
	cmd := exec.Command(path, args...)
	cmd.Stdin, cmd.Stderr = theirs, w
	proc.Prepare(cmd)
	err = proc.StartHelper(cmd)
	w.Close()
	theirs.Close() // the helper's now: its end is the socket's end
	if err != nil {
		r.Close()
		mine.Close()
		return nil, err
	}
	h := &helper{cmd: cmd, ended: make(chan struct{})}
	go func() {
		b, _ := io.ReadAll(io.LimitReader(r, 4<<10))
		r.Close()
		h.why = firstLine(string(b))
		close(h.ended)
	}()
	nc, err := net.FileConn(mine)
	mine.Close()
	if err != nil {
		h.reap(0)
		return nil, err
	}
	c := &helperConn{nc.(*net.UnixConn), h}
	if err := c.ready(ctx); err != nil {
		c.Close()
		return nil, err
	}
	return c, nil
}

// ready waits within ctx for the helper's word that the TLS connection
// is made.
func (c *helperConn) ready(ctx context.Context) error {
	if d, ok := ctx.Deadline(); ok {
		c.SetReadDeadline(d)
	}
	stop := context.AfterFunc(ctx, func() { c.SetReadDeadline(time.Unix(1, 0)) })
	defer stop()
	buf := make([]byte, len(helperReady))
	_, err := io.ReadFull(c, buf)
	c.SetReadDeadline(time.Time{})
	switch {
	case err == nil && string(buf) != helperReady:
		return errors.New(HelperName + " sent no word of its connection")
	case err == nil:
		return nil
	case ctx.Err() != nil:
		// The helper, bounded by the same deadline, may say why.
		if why := c.h.said(50 * time.Millisecond); why != "" {
			return tlsError(why)
		}
		return ctx.Err()
	}
	return err
}

// Read reads what the server sent.
func (c *helperConn) Read(p []byte) (int, error) {
	n, err := c.UnixConn.Read(p)
	return n, c.h.explain(err)
}

// Write sends p to the server.
func (c *helperConn) Write(p []byte) (int, error) {
	n, err := c.UnixConn.Write(p)
	return n, c.h.explain(err)
}

// Close closes the socket, which ends the helper, and reaps it.
func (c *helperConn) Close() error {
	err := c.UnixConn.Close()
	c.h.reap(200 * time.Millisecond)
	return err
}

// explain returns the cause the helper names for err, the end of its
// socket, or err.
func (h *helper) explain(err error) error {
	if err == nil || errors.Is(err, os.ErrDeadlineExceeded) || errors.Is(err, net.ErrClosed) {
		return err
	}
	if why := h.said(time.Second); why != "" {
		return tlsError(why)
	}
	return err
}

// said returns what the helper said, waiting up to wait for it to end.
func (h *helper) said(wait time.Duration) string {
	select {
	case <-h.ended:
		return h.why
	case <-time.After(wait):
		return ""
	}
}

// reap waits up to wait for the helper to end, kills it after that, and
// waits for its exit.
func (h *helper) reap(wait time.Duration) {
	h.reaped.Do(func() {
		if h.said(wait); !closedChan(h.ended) {
			h.cmd.Process.Kill()
		}
		h.cmd.Wait()
	})
}

// closedChan reports whether ch is closed.
func closedChan(ch chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}
