// Package oneproc makes retry run its Go code on one processor
// (GOMAXPROCS 1) from its first package initialisers on, unless
// GOMAXPROCS is set in its environment. The retry command imports it for
// that alone; nothing else may.
//
// retry runs one goroutine at a time but for the copies of an attempt's
// output, which wait on the pipes far more than they run. With a second
// processor the runtime wakes an idle thread, or makes one, each time a
// goroutine becomes runnable, to look for work on it: threads, futex
// calls and cache misses that `retry -- true` pays from the runtime's
// first goroutines on. It is an initialiser, imported by main before the
// rest, so that the package initialisers run on one processor too: set in
// main instead, it saves a third of what it saves here.
//
// Attempts are not affected: the environment they get is retry's own.
package oneproc

import (
	"runtime"
	"syscall"
)

func init() {
	if _, set := syscall.Getenv("GOMAXPROCS"); !set {
		runtime.GOMAXPROCS(1)
	}
}
