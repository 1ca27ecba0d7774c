package runner

import (
	"context"
	"math/rand/v2"
	"testing"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
)

// splayObserver records the splay it hears of, and when the first attempt
// started.
type splayObserver struct {
	splays []time.Duration
	clock  *fakeClock
	first  time.Time
}

func (o *splayObserver) Splaying(d time.Duration) { o.splays = append(o.splays, d) }
func (o *splayObserver) AttemptStarted(a *Attempt, _ int) {
	if a.Number == 1 {
		o.first = o.clock.now
	}
}
func (o *splayObserver) AttemptFinished(*Attempt, int, bool) {}

func TestSplay(t *testing.T) {
	policy := backoff.Policy{Base: time.Second, Cap: 30 * time.Second}
	for _, tc := range []struct {
		name     string
		splay    time.Duration
		depth    int
		deadline time.Duration
		cancel   bool
		want     Outcome
		splays   int // waits before the first attempt
		attempts int
	}{
		{"no splay", 0, 0, 0, false, Exhausted, 0, 2},
		{"splay", 10 * time.Second, 0, 0, false, Exhausted, 1, 2},
		{"nested: no splay", 10 * time.Second, 1, 0, false, Exhausted, 0, 2},
		{"within the deadline", 10 * time.Second, 0, time.Hour, false, Exhausted, 1, 2},
		{"cancelled during the splay", 10 * time.Second, 0, 0, true, Cancelled, 1, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			clock := &fakeClock{now: t0}
			obs := &splayObserver{clock: clock}
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			if tc.cancel {
				cancel(&SignalError{Signal: 15})
			}
			cfg := Config{
				Command: command("exit", "1"), Attempts: 2, Splay: tc.splay, Depth: tc.depth,
				Backoff: policy, Rand: rand.New(rand.NewPCG(7, 7)), Clock: clock, Observer: obs,
			}
			if tc.deadline > 0 {
				cfg.Deadline = t0.Add(tc.deadline)
			}
			res, err := Run(ctx, cfg)
			if err != nil {
				t.Fatal(err)
			}
			if res.Outcome != tc.want || len(res.Attempts) != tc.attempts {
				t.Fatalf("got %s after %d attempts; want %s after %d", res.Outcome, len(res.Attempts), tc.want, tc.attempts)
			}
			if len(obs.splays) != tc.splays || res.Splayed != (tc.splays > 0) {
				t.Fatalf("splays heard %v, Splayed %v; want %d", obs.splays, res.Splayed, tc.splays)
			}
			if tc.splays == 0 {
				return
			}
			d := obs.splays[0]
			if d < 0 || d >= tc.splay || d != res.Splay || clock.sleeps[0] != d {
				t.Fatalf("splay %v (recorded %v, slept %v); want one in [0, %v)", d, res.Splay, clock.sleeps, tc.splay)
			}
			if tc.cancel {
				if res.Signal != 15 {
					t.Errorf("signal %d; want 15", res.Signal)
				}
				return
			}
			if got := obs.first.Sub(t0); got != d {
				t.Errorf("the first attempt started %v in; want after the splay, %v", got, d)
			}
		})
	}
}

// Without a splay no random number is drawn: a seed draws the same waits
// as it did before there was a splay.
func TestNoSplayKeepsTheSeedsWaits(t *testing.T) {
	policy := backoff.Policy{Base: time.Second, Cap: 30 * time.Second}
	rng := rand.New(rand.NewPCG(3, 3))
	want := []time.Duration{}
	for i := range 2 {
		d, err := policy.Delay(i, rng)
		if err != nil {
			t.Fatal(err)
		}
		want = append(want, d)
	}
	clock := &fakeClock{now: t0}
	if _, err := Run(context.Background(), Config{
		Command: command("exit", "1"), Attempts: 3, Backoff: policy, Rand: rand.New(rand.NewPCG(3, 3)), Clock: clock,
	}); err != nil {
		t.Fatal(err)
	}
	if len(clock.sleeps) != 2 || clock.sleeps[0] != want[0] || clock.sleeps[1] != want[1] {
		t.Errorf("slept %v; want %v", clock.sleeps, want)
	}
}

// A splay that would end after the deadline starts no attempt.
func TestSplayPastTheDeadline(t *testing.T) {
	clock := &fakeClock{now: t0}
	res, err := Run(context.Background(), Config{
		Command: command(), Attempts: 1, Splay: time.Hour, Deadline: t0.Add(time.Nanosecond),
		Backoff: backoff.Policy{Base: time.Second}, Rand: rand.New(rand.NewPCG(1, 2)), Clock: clock,
	})
	if err != nil {
		t.Fatal(err)
	}
	if res.Outcome != Deadline || len(res.Attempts) != 0 || len(clock.sleeps) != 0 {
		t.Errorf("got %s after %d attempts, slept %v; want deadline, no attempt, no sleep", res.Outcome, len(res.Attempts), clock.sleeps)
	}
}

// MaxSplay is the splay a run may wait: none when nested, where the
// outer retry splayed.
func TestMaxSplay(t *testing.T) {
	for _, tc := range []struct {
		splay time.Duration
		depth int
		want  time.Duration
	}{
		{0, 0, 0},
		{time.Minute, 0, time.Minute},
		{time.Minute, 1, 0},
		{time.Minute, 2, 0},
	} {
		cfg := Config{Splay: tc.splay, Depth: tc.depth}
		if got := cfg.MaxSplay(); got != tc.want {
			t.Errorf("Splay %v, Depth %d: MaxSplay %v; want %v", tc.splay, tc.depth, got, tc.want)
		}
	}
}
