//go:build !unix

package redisstore

import "net"

// closedOrTalking cannot look at a socket without waiting here: stale
// waits for what it looks for instead.
func closedOrTalking(net.Conn) (found, ok bool) { return false, false }
