// Command retry runs a command again when it fails in a way that another
// attempt may fix, with capped, jittered exponential backoff inside one
// overall deadline. It is a program, not API: what other Go programs may
// import is runner, its sub-packages and exitcodes.
package main

import (
	"os"
	"time"

	// For its initialiser: retry starts on one processor. It imports the
	// runtime alone, so it is initialised among the first packages,
	// whatever the order of these lines.
	"github.com/b0a38808/retry/internal/oneproc"

	"github.com/b0a38808/retry/cmd"
)

// version is set at link time (-ldflags "-X main.version=..."); when empty,
// cmd falls back to the module version recorded in the build info.
var version string

func main() {
	time.AfterFunc(oneproc.RestoreAfter, oneproc.Restore)
	os.Exit(cmd.Execute(version, os.Args[1:]))
}
