// Package oneproc makes retry run its Go code on one processor
// (GOMAXPROCS 1) from its first package initialisers on, for the first
// 5 ms of its run, unless GOMAXPROCS is set in its environment. The retry
// command imports it for that alone; nothing else may.
//
// Starting, retry runs one goroutine at a time. With a second processor
// the runtime wakes an idle thread, or makes one, each time a goroutine
// becomes runnable, to look for work on it: threads, futex calls and
// cache misses that `retry -- true` pays from the runtime's first
// goroutines on. It is an initialiser, imported by main before the rest,
// so that the package initialisers run on one processor too: set in main
// instead, it saves a third of what it saves here. After Restore, retry
// has the runtime's default again (runtime.SetDefaultGOMAXPROCS), so that
// a longer attempt's output is copied and matched, and memory collected,
// as without this package.
//
// Attempts are not affected: the environment they get is retry's own.
package oneproc

import (
	"runtime"
	"syscall"
	"time"
)

// Restore is how long retry runs on one processor.
const Restore = 5 * time.Millisecond

func init() {
	if _, set := syscall.Getenv("GOMAXPROCS"); !set {
		oneFor(Restore)
	}
}

// oneFor sets GOMAXPROCS to 1, and back to the default after d.
func oneFor(d time.Duration) {
	runtime.GOMAXPROCS(1)
	time.AfterFunc(d, runtime.SetDefaultGOMAXPROCS)
}
