//go:build unix

package redisstore

import (
	"net"
	"syscall"
)

// closedOrTalking looks at a plain socket, without waiting, for what an
// idle connection should not have: its end (the server closed it) or
// bytes nobody asked for. ok is false where it cannot look (a TLS
// connection, whose records it must not read past), and stale then waits
// for them instead.
func closedOrTalking(nc net.Conn) (found, ok bool) {
	sc, isSyscall := nc.(syscall.Conn)
	if !isSyscall {
		return false, false
	}
	raw, err := sc.SyscallConn()
	if err != nil {
		return false, false
	}
	var rerr error
	// The socket is non-blocking, as Go keeps every socket: one recv
	// with MSG_PEEK tells at once, and the function runs exactly once.
	err = raw.Read(func(fd uintptr) bool {
		var b [1]byte
		_, _, rerr = syscall.Recvfrom(int(fd), b[:], syscall.MSG_PEEK)
		return true
	})
	if err != nil {
		return true, true
	}
	// Nothing to read yet: the connection is idle, as it should be. A
	// byte, the end of the stream (0 bytes) or any other error: a
	// connection not to send a command on.
	idle := rerr == syscall.EAGAIN || rerr == syscall.EWOULDBLOCK || rerr == syscall.EINTR
	return !idle, true
}
