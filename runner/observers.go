package runner

import "time"

// SplayObserver is an Observer that also hears of the splay: the random
// wait before the first attempt (Config.Splay).
type SplayObserver interface {
	// Splaying is called as the splay of d begins.
	Splaying(d time.Duration)
}

// CancelObserver is an Observer that also hears when a cancelled
// operation waits for a process to exit.
type CancelObserver interface {
	// Cancelling is called once the operation is cancelled while a
	// process of it runs: retry has stopped it and waits up to grace
	// (Config.KillAfter) for what names it ("the command") to exit,
	// before SIGKILL.
	Cancelling(what string, grace time.Duration)
}
