package runner

import (
	"context"
	"math/rand/v2"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
)

var t0 = time.Date(2026, 11, 30, 7, 0, 0, 0, time.UTC)

func TestAttemptLimit(t *testing.T) {
	for _, tc := range []struct {
		name     string
		now      time.Time
		deadline time.Time
		timeout  time.Duration
		want     time.Duration
		ok       bool
	}{
		{"no deadline, no timeout", t0, time.Time{}, 0, 0, true},
		{"no deadline", t0, time.Time{}, 5 * time.Second, 5 * time.Second, true},
		{"deadline shorter than timeout", t0, t0.Add(2 * time.Second), 5 * time.Second, 2 * time.Second, true},
		{"timeout shorter than time left", t0, t0.Add(10 * time.Second), 5 * time.Second, 5 * time.Second, true},
		{"deadline without timeout", t0, t0.Add(3 * time.Second), 0, 3 * time.Second, true},
		{"deadline reached", t0.Add(time.Second), t0.Add(time.Second), 5 * time.Second, 0, false},
		{"deadline passed", t0.Add(2 * time.Second), t0.Add(time.Second), 0, 0, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, ok := attemptLimit(tc.now, tc.deadline, tc.timeout)
			if got != tc.want || ok != tc.ok {
				t.Errorf("attemptLimit = %v, %v; want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
}

func TestWaitFits(t *testing.T) {
	for _, tc := range []struct {
		now      time.Time
		d        time.Duration
		deadline time.Time
		want     bool
	}{
		{t0, time.Hour, time.Time{}, true},
		{t0, time.Second, t0.Add(2 * time.Second), true},
		{t0, 2 * time.Second, t0.Add(2 * time.Second), false}, // no time left for an attempt
		{t0, 3 * time.Second, t0.Add(2 * time.Second), false},
	} {
		if got := waitFits(tc.now, tc.d, tc.deadline); got != tc.want {
			t.Errorf("waitFits(%v, %v, %v) = %v; want %v", tc.now, tc.d, tc.deadline, got, tc.want)
		}
	}
}

// fakeClock advances only when the runner sleeps, so waits cost nothing
// and the schedule is exact.
type fakeClock struct {
	now    time.Time
	sleeps []time.Duration
}

func (c *fakeClock) Now() time.Time { return c.now }

func (c *fakeClock) Sleep(ctx context.Context, d time.Duration) error {
	c.sleeps = append(c.sleeps, d)
	c.now = c.now.Add(d)
	return ctx.Err()
}

func TestRunStopsWhenTheNextWaitWouldPassTheDeadline(t *testing.T) {
	clock := &fakeClock{now: t0}
	res, err := Run(context.Background(), Config{
		Command:  command("exit", "1"),
		Attempts: 10,
		Deadline: t0.Add(10 * time.Second),
		Backoff:  backoff.Policy{Base: time.Second, Cap: time.Minute, Jitter: backoff.None},
		Clock:    clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	// Waits of 1s, 2s and 4s fit in 10s; the next, 8s, would end at 15s.
	want := []time.Duration{time.Second, 2 * time.Second, 4 * time.Second}
	if len(clock.sleeps) != len(want) {
		t.Fatalf("slept %v; want %v", clock.sleeps, want)
	}
	for i := range want {
		if clock.sleeps[i] != want[i] {
			t.Fatalf("slept %v; want %v", clock.sleeps, want)
		}
	}
	if res.Outcome != Deadline || len(res.Attempts) != 4 {
		t.Errorf("outcome %s after %d attempts; want deadline after 4", res.Outcome, len(res.Attempts))
	}
	if last := res.Last(); last.HasDelay {
		t.Errorf("the last attempt has a delay: %v", last.Delay)
	}
	if res.Elapsed != 7*time.Second {
		t.Errorf("elapsed %v; want 7s", res.Elapsed)
	}
}

func TestRunExhaustsAttempts(t *testing.T) {
	clock := &fakeClock{now: t0}
	res, err := Run(context.Background(), Config{
		Command:  command("exit", "3"),
		Attempts: 3,
		Backoff:  backoff.Policy{Base: time.Second, Cap: 30 * time.Second},
		Rand:     rand.New(rand.NewPCG(1, 1)),
		Clock:    clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Exhausted || len(res.Attempts) != 3 || res.Last().ExitCode != 3 {
		t.Fatalf("got %s after %d attempts, last exit %d; want exhausted after 3, exit 3", res.Outcome, len(res.Attempts), res.Last().ExitCode)
	}
	for i, d := range clock.sleeps {
		if u := backoff.Upper(i, time.Second, 30*time.Second); d < 0 || d >= u {
			t.Errorf("wait %d = %v; want in [0, %v)", i, d, u)
		}
		if !res.Attempts[i].HasDelay || res.Attempts[i].Delay != d {
			t.Errorf("attempt %d records delay %v; slept %v", i+1, res.Attempts[i].Delay, d)
		}
	}
}

func TestRunPassedDeadlineRunsNothing(t *testing.T) {
	clock := &fakeClock{now: t0}
	res, err := Run(context.Background(), Config{
		Command:  command(),
		Deadline: t0,
		Backoff:  backoff.Policy{Base: time.Second},
		Clock:    clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Deadline || len(res.Attempts) != 0 {
		t.Errorf("got %s after %d attempts; want deadline after 0", res.Outcome, len(res.Attempts))
	}
}

func TestRunRejectsBadConfig(t *testing.T) {
	if _, err := Run(context.Background(), Config{Backoff: backoff.Policy{Base: time.Second}}); err != ErrNoCommand {
		t.Errorf("no command: err = %v; want ErrNoCommand", err)
	}
	if _, err := Run(context.Background(), Config{Command: command()}); err != backoff.ErrInvalid {
		t.Errorf("zero base: err = %v; want backoff.ErrInvalid", err)
	}
}

func TestCancelDuringWaitRecordsTheSignal(t *testing.T) {
	ctx, cancel := context.WithCancelCause(context.Background())
	cancel(&SignalError{Signal: 2})
	res, err := Run(ctx, Config{Command: command(), Backoff: backoff.Policy{Base: time.Second}})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Cancelled || res.Signal != 2 || len(res.Attempts) != 0 {
		t.Errorf("got %s, signal %d, %d attempts; want cancelled, 2, 0", res.Outcome, res.Signal, len(res.Attempts))
	}
}

func TestUUID(t *testing.T) {
	a, b := newUUID(), newUUID()
	if a == b || len(a) != 36 || a[14] != '4' || !strings.ContainsRune("89ab", rune(a[19])) {
		t.Errorf("newUUID() = %q, %q", a, b)
	}
}
