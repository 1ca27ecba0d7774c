// Package oneproc makes retry run its Go code on one processor
// (GOMAXPROCS 1) from its first package initialisers on, until main calls
// Restore (RestoreAfter into the run). The retry command imports it for
// that alone; it is internal: other Go programs cannot import it.
//
// Starting, retry runs one goroutine at a time. With a second processor
// the runtime wakes an idle thread, or makes one, each time a goroutine
// becomes runnable, to look for work on it: threads, futex calls and
// cache misses that `retry -- true` pays from the runtime's first
// goroutines on. The package imports the runtime alone, so that its
// initialiser runs right after the runtime's: lowering GOMAXPROCS takes
// the processor it gives up out of use, and that flushes the memory cached
// for it, which costs more the more the initialisers before it allocated.
// Without the os and syscall packages it cannot read the environment:
// it leaves a GOMAXPROCS other than the number of CPUs alone (set in the
// environment, or lowered by a container's CPU limit).
//
// Attempts are not affected: the environment they get is retry's own.
package oneproc

import "runtime"

// RestoreAfter is how long into the run main calls Restore: 5 ms, in
// nanoseconds, so that main can hand it to time.AfterFunc (a
// time.Duration here would import time, whose initialiser would then run
// first).
const RestoreAfter = 5_000_000

// lowered records that the initialiser set GOMAXPROCS to 1.
var lowered = lower()

// lower sets GOMAXPROCS to 1 when it is the number of CPUs, and reports
// whether it did.
func lower() bool {
	n := runtime.NumCPU()
	if n < 2 || runtime.GOMAXPROCS(0) != n {
		return false
	}
	runtime.GOMAXPROCS(1)
	return true
}

// Restore gives retry the runtime's default GOMAXPROCS again
// (runtime.SetDefaultGOMAXPROCS), so that a longer attempt's output is
// copied and matched, and memory collected, as without this package. It
// does nothing when the initialiser left GOMAXPROCS alone.
func Restore() {
	if lowered {
		runtime.SetDefaultGOMAXPROCS()
	}
}
