//go:build unix

package proc

import (
	"os"
	"os/exec"
	"runtime"
	"syscall"
	"testing"
	"time"
)

func receive(t *testing.T, c <-chan os.Signal, want syscall.Signal) {
	t.Helper()
	select {
	case got := <-c:
		if got != want {
			t.Fatalf("got %v, want %v", got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("no %v within 5s", want)
	}
}

func TestNotifyRelays(t *testing.T) {
	a := make(chan os.Signal, 4)
	b := make(chan os.Signal, 4)
	Notify(a, syscall.SIGUSR1, syscall.SIGUSR2)
	Notify(b, syscall.SIGUSR1)
	selfSignal(t, syscall.SIGUSR1)
	receive(t, a, syscall.SIGUSR1)
	receive(t, b, syscall.SIGUSR1)
	selfSignal(t, syscall.SIGUSR2)
	receive(t, a, syscall.SIGUSR2)

	// Stopping one channel leaves the other its signals.
	StopNotify(b)
	selfSignal(t, syscall.SIGUSR1)
	receive(t, a, syscall.SIGUSR1)
	select {
	case s := <-b:
		t.Fatalf("stopped channel got %v", s)
	case <-time.After(50 * time.Millisecond):
	}
	StopNotify(a)
}

// TestStopNotifyDelivers holds StopNotify to os/signal.Stop's promise: a
// signal caught before the call has reached the channel once it returns.
func TestStopNotifyDelivers(t *testing.T) {
	for i := 0; i < 100; i++ {
		c := make(chan os.Signal, 1)
		Notify(c, syscall.SIGUSR2)
		selfSignal(t, syscall.SIGUSR2)
		StopNotify(c)
		select {
		case <-c:
		default:
			t.Fatalf("round %d: the signal caught before StopNotify was lost", i)
		}
	}
}

// TestStopNotifyRestores checks that a signal no channel wants gets back
// the action it had, so that it does what it did before Notify.
func TestStopNotifyRestores(t *testing.T) {
	before, ok := action(syscall.SIGUSR1)
	if !ok {
		t.Skip("cannot read a signal's action here")
	}
	c := make(chan os.Signal, 1)
	Notify(c, syscall.SIGUSR1)
	StopNotify(c)
	if after, _ := action(syscall.SIGUSR1); after != before {
		t.Errorf("SIGUSR1's action after StopNotify is %#x, was %#x", after, before)
	}
}

// TestNotifiedSignalKillsChild checks that a process started while a
// signal is caught gets its default action: the child dies by it.
func TestNotifiedSignalKillsChild(t *testing.T) {
	c := make(chan os.Signal, 1)
	Notify(c, syscall.SIGUSR1)
	defer StopNotify(c)
	cmd := exec.Command("/bin/sh", "-c", `kill -USR1 $$; echo alive`)
	out, err := cmd.Output()
	ws, _ := cmd.ProcessState.Sys().(syscall.WaitStatus)
	if err == nil || !ws.Signaled() || ws.Signal() != syscall.SIGUSR1 {
		t.Fatalf("child: %v, output %q; want death by SIGUSR1", err, out)
	}
}

// TestNotifyUnderLoad sends many signals to the process while goroutines
// allocate, switch and collect garbage: the handler may interrupt any of
// it, on any thread, and must leave it unharmed. (SIGWINCH, whose default
// is to be ignored: one still pending at the end harms no other test.)
func TestNotifyUnderLoad(t *testing.T) {
	c := make(chan os.Signal, 1024)
	Notify(c, syscall.SIGWINCH)
	defer StopNotify(c)
	stop := make(chan struct{})
	done := make(chan int)
	for w := 0; w < 4; w++ {
		go func() {
			n := 0
			for {
				select {
				case <-stop:
					done <- n
					return
				default:
				}
				b := make([]byte, 1<<10)
				n += len(b)
				runtime.Gosched()
			}
		}()
	}
	got := 0
	for i := 0; i < 2000; i++ {
		if err := syscall.Kill(syscall.Getpid(), syscall.SIGWINCH); err != nil {
			t.Fatal(err)
		}
		if i%200 == 0 {
			runtime.GC()
		}
		for len(c) > 0 {
			<-c
			got++
		}
	}
	close(stop)
	for w := 0; w < 4; w++ {
		<-done
	}
	deadline := time.After(5 * time.Second)
	for got == 0 {
		select {
		case <-c:
			got++
		case <-deadline:
			t.Fatal("no signal relayed")
		}
	}
}
