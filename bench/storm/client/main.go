// Command stormclient is the client bench/storm runs under retry (one GET
// of its service), and what starts each retry so that its peak RSS is its
// own (stormclient -spawn): see bench/storm/internal/client.
package main

import (
	"os"

	"github.com/b0a38808/retry/bench/storm/internal/client"
)

func main() {
	os.Exit(client.Run(os.Args[1:], os.Getenv("RETRY_ATTEMPT"), os.Stdout, os.Stderr))
}
