//go:build !linux || !(amd64 || arm64)

package proc

import (
	"os"
	"os/signal"
)

// NotifyCostly reports whether Notify is dear enough to be worth calling
// beside other work: with os/signal, each signal is a round trip to the
// runtime's signal thread.
const NotifyCostly = true

// Notify relays the signals sigs to c: os/signal.Notify.
func Notify(c chan<- os.Signal, sigs ...os.Signal) { signal.Notify(c, sigs...) }

// StopNotify stops relaying signals to c: os/signal.Stop.
func StopNotify(c chan<- os.Signal) { signal.Stop(c) }

// FlushNotify does nothing: os/signal relays signals as they come.
func FlushNotify() {}

// OwnOutputs reports whether retry writes its output through descriptors
// of its own (OwnOutput): not here, where os/signal catches SIGPIPE, so
// that a write to stdout or stderr without a reader fails instead of
// killing retry.
const OwnOutputs = false

// OwnOutput returns f: retry writes its output through its own stdout and
// stderr here.
func OwnOutput(f *os.File) *os.File { return f }
