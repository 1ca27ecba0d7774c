// Command retry-tls carries the TLS connections of retry's budget store
// (rediss:// and rediss+sentinel://), so that retry itself links no
// crypto and starts faster. Retry starts it for each TLS connection; it
// is not meant to be run by hand.
package main

import (
	"os"

	"github.com/b0a38808/retry/runner/budget/redisstore/tlsrelay"
)

func main() {
	os.Exit(tlsrelay.Main(os.Args[1:], os.Stderr))
}
