//go:build unix

package runner

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
	"github.com/b0a38808/retry/runner/classify"
)

// signalRun runs script under sh with signals delivered through a channel,
// as cmd delivers them. send is called once the script has written the
// file "ready" in dir (after setting its traps); it returns what Run
// returned.
func signalRun(t *testing.T, script string, cfg Config, send func(ch chan<- os.Signal, dir string)) *Result {
	t.Helper()
	dir := t.TempDir()
	ch := make(chan os.Signal, 4)
	cfg.Command = []string{"sh", "-c", script}
	cfg.Env = append(os.Environ(), "DIR="+dir)
	cfg.Signals = ch
	if cfg.Backoff.Base == 0 {
		cfg.Backoff = backoff.Policy{Base: time.Millisecond, Cap: time.Millisecond}
	}
	if cfg.KillAfter == 0 {
		cfg.KillAfter = time.Minute // longer than any test: a kill must come from a signal
	}
	type ran struct {
		res *Result
		err error
	}
	done := make(chan ran, 1)
	go func() {
		res, err := Run(context.Background(), cfg)
		done <- ran{res, err}
	}()
	waitFile(t, filepath.Join(dir, "ready"))
	send(ch, dir)
	select {
	case r := <-done:
		if r.err != nil {
			t.Fatal(r.err)
		}
		return r.res
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10s of the signal")
	}
	return nil
}

func waitFile(t *testing.T, name string) {
	t.Helper()
	for start := time.Now(); time.Since(start) < 10*time.Second; time.Sleep(5 * time.Millisecond) {
		if b, err := os.ReadFile(name); err == nil && len(b) > 0 {
			return
		}
	}
	t.Fatalf("%s did not appear", name)
}

// readyLoop is a script ending that signals readiness and then waits to be
// signalled; sleep runs in the background so that traps run at once.
const readyLoop = `echo ready >"$DIR/ready"; while :; do sleep 0.01; done`

func TestTermIsForwardedAndCancels(t *testing.T) {
	res := signalRun(t, `trap 'echo got TERM >"$DIR/got"; exit 7' TERM; `+readyLoop,
		Config{Attempts: 3}, func(ch chan<- os.Signal, _ string) { ch <- syscall.SIGTERM })
	if res.Outcome != Cancelled || len(res.Attempts) != 1 {
		t.Fatalf("got %s after %d attempts; want cancelled after 1", res.Outcome, len(res.Attempts))
	}
	if a := res.Last(); a.ExitCode != 7 || a.Signal != 0 {
		t.Errorf("the attempt ended with exit %d, signal %d; want exit 7, the trap's", a.ExitCode, a.Signal)
	}
	if res.Signal != 0 {
		t.Errorf("Result.Signal = %v; want 0: an attempt was running, retry ends as it did", res.Signal)
	}
}

func TestUSR1IsForwardedWithoutCancelling(t *testing.T) {
	res := signalRun(t, `[ "$RETRY_ATTEMPT" = 2 ] && exit 0; trap 'exit 3' USR1; `+readyLoop,
		Config{Attempts: 3}, func(ch chan<- os.Signal, _ string) { ch <- syscall.SIGUSR1 })
	if res.Outcome != Succeeded || len(res.Attempts) != 2 || res.Attempts[0].ExitCode != 3 {
		t.Fatalf("got %s after %d attempts, first exit %d; want succeeded after 2, first exit 3", res.Outcome, len(res.Attempts), res.Attempts[0].ExitCode)
	}
}

func TestDeathByAForwardedSignalIsNotAmbiguous(t *testing.T) {
	res := signalRun(t, `[ "$RETRY_ATTEMPT" = 2 ] && exit 0; `+readyLoop,
		Config{Attempts: 2, Rules: &classify.Rules{StopOnAmbiguous: true}},
		func(ch chan<- os.Signal, _ string) { ch <- syscall.SIGUSR2 })
	a := res.Attempts[0]
	if a.Signal != syscall.SIGUSR2 || !a.SignalSent || a.Class != classify.Retryable || !strings.Contains(a.Reason, "killed by SIGUSR2 from retry") {
		t.Errorf("first attempt: signal %v, sent %v, %s (%s); want SIGUSR2, sent, retryable, killed by SIGUSR2 from retry", a.Signal, a.SignalSent, a.Class, a.Reason)
	}
	if res.Outcome != Succeeded {
		t.Errorf("outcome %s; want succeeded (--on-ambiguous stop must not apply)", res.Outcome)
	}
}

func TestSecondTermKillsTheGroup(t *testing.T) {
	start := time.Now()
	res := signalRun(t, `trap '' TERM; `+readyLoop, Config{Attempts: 3},
		func(ch chan<- os.Signal, _ string) {
			ch <- syscall.SIGTERM
			time.Sleep(50 * time.Millisecond)
			ch <- syscall.SIGTERM
		})
	a := res.Last()
	if res.Outcome != Cancelled || len(res.Attempts) != 1 || a.Signal != syscall.SIGKILL || !a.SignalSent {
		t.Errorf("got %s after %d attempts, signal %v (sent %v); want cancelled after 1 by SIGKILL that retry sent", res.Outcome, len(res.Attempts), a.Signal, a.SignalSent)
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v: the second TERM did not kill at once", d)
	}
}

func TestCancelDuringAWaitEndsAtOnce(t *testing.T) {
	start := time.Now()
	res := signalRun(t, `echo ready >"$DIR/ready"; exit 1`,
		Config{Attempts: 3, Backoff: backoff.Policy{Base: time.Hour, Cap: time.Hour, Jitter: backoff.None}},
		func(ch chan<- os.Signal, _ string) {
			time.Sleep(50 * time.Millisecond) // into the wait
			ch <- syscall.SIGINT
		})
	if res.Outcome != Cancelled || res.Signal != syscall.SIGINT || len(res.Attempts) != 1 {
		t.Errorf("got %s, signal %v, after %d attempts; want cancelled by SIGINT after 1", res.Outcome, res.Signal, len(res.Attempts))
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("took %v: the wait was not cut short", d)
	}
}

func TestCancellingSignalsEachCancel(t *testing.T) {
	for _, sig := range []syscall.Signal{syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP, syscall.SIGQUIT} {
		t.Run(sig.String(), func(t *testing.T) {
			res := signalRun(t, readyLoop, Config{Attempts: 3}, func(ch chan<- os.Signal, _ string) { ch <- sig })
			a := res.Last()
			if res.Outcome != Cancelled || len(res.Attempts) != 1 || a.Signal != sig || !a.SignalSent {
				t.Errorf("got %s after %d attempts, died from %v (sent %v); want cancelled after 1, died from %v that retry forwarded", res.Outcome, len(res.Attempts), a.Signal, a.SignalSent, sig)
			}
		})
	}
}

func TestCancels(t *testing.T) {
	for sig, want := range map[syscall.Signal]bool{
		syscall.SIGINT: true, syscall.SIGTERM: true, syscall.SIGHUP: true, syscall.SIGQUIT: true,
		syscall.SIGUSR1: false, syscall.SIGUSR2: false, syscall.SIGWINCH: false,
	} {
		if got := Cancels(sig); got != want {
			t.Errorf("Cancels(%v) = %v; want %v", sig, got, want)
		}
	}
}

// TestSignalsReadyHoldsTheFirstAttempt: no attempt starts before the
// caller says the signals are caught (cmd catches them concurrently).
func TestSignalsReadyHoldsTheFirstAttempt(t *testing.T) {
	dir := t.TempDir()
	started := filepath.Join(dir, "started")
	ready := make(chan struct{})
	cfg := Config{
		Command:      []string{"sh", "-c", `: >"$1"`, "sh", started},
		Attempts:     1,
		Backoff:      backoff.Policy{Base: time.Millisecond, Cap: time.Millisecond},
		Signals:      make(chan os.Signal, 1),
		SignalsReady: ready,
	}
	done := make(chan *Result, 1)
	go func() {
		res, err := Run(context.Background(), cfg)
		if err != nil {
			t.Error(err)
		}
		done <- res
	}()
	time.Sleep(100 * time.Millisecond)
	if _, err := os.Stat(started); err == nil {
		t.Fatal("the attempt started before SignalsReady was closed")
	}
	select {
	case <-done:
		t.Fatal("Run returned before SignalsReady was closed")
	default:
	}
	close(ready)
	select {
	case res := <-done:
		if res == nil || res.Outcome != Succeeded {
			t.Fatalf("outcome %+v; want succeeded", res)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("Run did not return within 10s of SignalsReady")
	}
	if _, err := os.Stat(started); err != nil {
		t.Fatalf("the attempt did not run: %v", err)
	}
}
