//go:build linux && (amd64 || arm64)

package proc

import (
	"os"
	"slices"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// NotifyCostly reports whether Notify is dear enough to be worth calling
// beside other work. Here it is a few system calls.
const NotifyCostly = false

// Notify relays the signals sigs to c, as os/signal.Notify does: a send
// that would block is dropped, so c needs room for the signals that may
// come at once. Here a handler of retry's own catches them and writes
// each one's number into a pipe, which a goroutine reads. (os/signal's
// first Notify starts two threads of the runtime, and each signal is a
// round trip to one of them, locked to its thread: 0.3 ms at every start
// on a 2-core machine, for the six signals retry forwards and SIGPIPE.)
// The handler runs on the signal stack that the Go runtime gives every
// thread and blocks all signals while it runs, as the runtime's own
// handler does. A process the runtime starts gets the default action for
// each of these signals, as with os/signal.
func Notify(c chan<- os.Signal, sigs ...os.Signal) {
	catcher.mu.Lock()
	defer catcher.mu.Unlock()
	if !catcher.start() {
		return
	}
	for _, s := range sigs {
		sig, ok := s.(syscall.Signal)
		if !ok || sig <= 0 || sig > maxSignal {
			continue
		}
		if len(catcher.chans[sig]) == 0 && !catcher.install(sig) {
			continue
		}
		if !slices.Contains(catcher.chans[sig], c) {
			catcher.chans[sig] = append(catcher.chans[sig], c)
		}
	}
}

// StopNotify stops relaying signals to c, as os/signal.Stop does: each
// signal caught before it was called has been sent to c (or dropped, c
// being full), and none is sent once it returns. A signal that no channel
// wants any more gets back the action it had before Notify.
func StopNotify(c chan<- os.Signal) {
	catcher.mu.Lock()
	defer catcher.mu.Unlock()
	if catcher.r == nil {
		return
	}
	catcher.drain(catcher.rfd)
	for sig, cs := range catcher.chans {
		i := slices.Index(cs, c)
		if i < 0 {
			continue
		}
		catcher.chans[sig] = slices.Delete(cs, i, i+1)
		if len(catcher.chans[sig]) == 0 {
			catcher.restore(sig)
		}
	}
	// What was caught meanwhile goes to the channels that still want it;
	// a signal that none wants any more is dropped here, not kept for a
	// later Notify.
	catcher.drain(catcher.rfd)
}

// FlushNotify relays the signals caught so far now, as StopNotify does
// before it stops.
func FlushNotify() {
	catcher.mu.Lock()
	defer catcher.mu.Unlock()
	if catcher.r != nil {
		catcher.drain(catcher.rfd)
	}
}

// OwnOutputs reports whether retry writes its output through descriptors
// of its own (OwnOutput): it does where Notify does without os/signal.
const OwnOutputs = true

// OwnOutput returns the file through which retry writes what it would
// write to f, its stdout or its stderr: a duplicate of f's descriptor,
// close-on-exec, or f when there is none. Go kills a program whose write
// to descriptor 1 or 2 finds no reader unless os/signal catches SIGPIPE;
// Notify does not tell the runtime, so retry writes through a duplicate,
// on which such a write fails (EPIPE) and raises a SIGPIPE that Notify
// catches. An attempt given the duplicate gets it as its own stdout or
// stderr, the same open file.
func OwnOutput(f *os.File) *os.File {
	fd, err := unix.FcntlInt(f.Fd(), unix.F_DUPFD_CLOEXEC, 3)
	if err != nil {
		return f
	}
	return os.NewFile(uintptr(fd), f.Name())
}

// sigfd is the pipe the handler writes each signal's number into: one
// byte, dropped when the pipe is full.
//
//lint:ignore U1000 read by sigtramp, in assembly (notify_linux_*.s)
var sigfd int32 = -1

// sigCatcher is the process's one pipe of caught signals and the
// channels they go to.
type sigCatcher struct {
	mu    sync.Mutex
	r     *os.File // the pipe's reading end; nil: not started
	rfd   int      // its descriptor (r.Fd would make it blocking)
	chans map[syscall.Signal][]chan<- os.Signal
	saved map[syscall.Signal]sigaction // the actions Notify replaced
}

var catcher = sigCatcher{chans: map[syscall.Signal][]chan<- os.Signal{}, saved: map[syscall.Signal]sigaction{}}

// start makes the pipe and starts relaying it, once. It reports whether
// signals can be caught.
func (c *sigCatcher) start() bool {
	if c.r != nil {
		return true
	}
	var p [2]int
	if err := syscall.Pipe2(p[:], syscall.O_CLOEXEC|syscall.O_NONBLOCK); err != nil {
		return false
	}
	r := os.NewFile(uintptr(p[0]), "signals") // non-blocking: read through the poller
	rc, err := r.SyscallConn()
	if err != nil {
		_ = r.Close()
		_ = syscall.Close(p[1])
		return false
	}
	c.r, c.rfd, sigfd = r, p[0], int32(p[1])
	go func() {
		// Each time the pipe holds something: what it holds, relayed
		// under the lock that StopNotify takes.
		_ = rc.Read(func(fd uintptr) bool {
			c.mu.Lock()
			c.drain(int(fd))
			c.mu.Unlock()
			return false
		})
	}()
	return true
}

// drain relays what the pipe holds now. The caller holds c.mu.
func (c *sigCatcher) drain(fd int) {
	var buf [64]byte
	for {
		n, err := syscall.Read(fd, buf[:])
		if n <= 0 {
			if err == syscall.EINTR {
				continue
			}
			return
		}
		for _, b := range buf[:n] {
			sig := syscall.Signal(b)
			for _, ch := range c.chans[sig] {
				select {
				case ch <- sig:
				default:
				}
			}
		}
	}
}

// sigaction is the kernel's struct sigaction on amd64 and arm64.
type sigaction struct {
	handler  uintptr
	flags    uint64
	restorer uintptr
	mask     uint64
}

const (
	saSiginfo  = 0x4
	saRestorer = 0x04000000
	saOnstack  = 0x08000000
	saRestart  = 0x10000000
)

// install makes the handler catch sig, keeping the action it replaces.
func (c *sigCatcher) install(sig syscall.Signal) bool {
	handler, restorer := handlerPCs()
	act := sigaction{handler: handler, flags: saSiginfo | saOnstack | saRestart, mask: ^uint64(0)}
	if restorer != 0 {
		act.flags |= saRestorer
		act.restorer = restorer
	}
	var old sigaction
	if !rtSigaction(sig, &act, &old) {
		return false
	}
	c.saved[sig] = old
	return true
}

// restore gives sig back the action install replaced.
func (c *sigCatcher) restore(sig syscall.Signal) {
	if old, ok := c.saved[sig]; ok {
		rtSigaction(sig, &old, nil)
		delete(c.saved, sig)
	}
}

// rtSigaction sets sig's action to act (when not nil) and stores the one
// it had in old (when not nil).
func rtSigaction(sig syscall.Signal, act, old *sigaction) bool {
	_, _, errno := syscall.RawSyscall6(syscall.SYS_RT_SIGACTION, uintptr(sig), uintptr(unsafe.Pointer(act)), uintptr(unsafe.Pointer(old)), 8, 0, 0)
	return errno == 0
}

// sigtramp is the handler, in assembly: it may run on any thread at any
// point, with no Go state of its own, so it only writes the signal's
// number (its first argument) into sigfd.
//
//lint:ignore U1000 only handlerPCs, in assembly, takes its address
func sigtramp()

// handlerPCs returns the addresses of sigtramp and of what the handler
// returns to (the system call that ends a handler: amd64 needs one of
// the program's own; 0 where the kernel provides it).
func handlerPCs() (handler, restorer uintptr)
