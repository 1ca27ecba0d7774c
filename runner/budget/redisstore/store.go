// Package redisstore keeps a retry budget and its concurrency slots in
// Redis, so that every retry on every machine that names the budget in the
// same store shares them: the rule of package budget, on the server's
// clock. It is API: other Go programs may import it.
//
// Each decision is one Lua script run by the server (EVALSHA, loaded on
// NOSCRIPT), so no count is lost or doubled however many processes ask at
// once. A slot is a lease the holder renews while it runs; the lease of a
// holder that died runs out. Every call is bounded (Options.Timeout, and
// the caller's deadline); a failure is a *budget.StoreError.
//
// The store is one server, any node of a Redis Cluster (a budget's keys
// share one hash slot, so each script runs on one node; MOVED and ASK
// are followed), the primary that Sentinels name, or a server on a Unix
// socket, over TLS or not: see Address. The client is this package's own
// (RESP2, one connection per server), so that nothing is sent again that
// may have run.
package redisstore

import (
	"context"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	"github.com/b0a38808/retry/runner/budget"
	"github.com/b0a38808/retry/runner/clock"
)

// The defaults of Options.
const (
	// DefaultTimeout bounds one call to the store.
	DefaultTimeout = time.Second
	// DefaultLease is how long a slot outlives its holder's last renewal.
	DefaultLease = 15 * time.Second
	// DefaultRenew is how often a holder renews its slot's lease.
	DefaultRenew = 5 * time.Second
)

// windowTTL is how long a budget's counts outlive its last update: the
// window, and as long again for counts a little ahead of the server's clock.
const windowTTL = 2 * budget.Window

// Slot polling, as package budget does it for its files: a waiter asks,
// then sleeps, doubling the sleep up to slotPollMax.
const (
	slotPollMin = 2 * time.Millisecond
	slotPollMax = 100 * time.Millisecond
)

// Options are what a test changes; zero fields take the defaults, and
// a zero Timeout the URL's (timeout=, else DefaultTimeout).
type Options struct {
	Timeout time.Duration
	Lease   time.Duration
	Renew   time.Duration
	// Clock measures the caller's deadlines and the waits for a slot;
	// the budget's window runs on the server's clock.
	Clock clock.Clock
}

// script is a Lua script and its SHA-1, by which EVALSHA calls it.
type script struct {
	src, sha string
}

// Store is one budget in one Redis, open in one process. It connects on
// first use, and again after a failed call. Its methods are safe for
// concurrent use.
type Store struct {
	addr   Address
	name   string
	policy budget.Policy
	opts   Options
	window script
	slots  script
	holder string       // this process's name in the slot leases
	held   atomic.Int64 // slots taken, which number the leases

	mu sync.Mutex // serialises calls on cl
	cl *client
}

// Open returns the budget name kept at addr. It does not connect: the
// first call does, so that an unreachable store is a *budget.StoreError of
// the call that needed it.
func Open(addr Address, name string, p budget.Policy, o Options) (*Store, error) {
	if err := budget.ValidateName(name); err != nil {
		return nil, fmt.Errorf("budget name: %w", err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("budget %q: %w", name, err)
	}
	if err := addr.LoadTLS(); err != nil {
		return nil, err
	}
	if o.Timeout <= 0 {
		o.Timeout = addr.timeout()
	}
	if o.Lease <= 0 {
		o.Lease = DefaultLease
	}
	if o.Renew <= 0 {
		o.Renew = DefaultRenew
	}
	if o.Clock == nil {
		o.Clock = clock.Real{}
	}
	host, _ := os.Hostname()
	// Unique, not secret: math/rand/v2's generator is seeded by the
	// kernel.
	var nonce [8]byte
	binary.LittleEndian.PutUint64(nonce[:], rand.Uint64())
	return &Store{
		addr: addr, name: name, policy: p, opts: o,
		window: script{windowScript, windowSHA},
		slots:  script{slotScript, slotSHA},
		holder: host + ":" + strconv.Itoa(os.Getpid()) + ":" + hex.EncodeToString(nonce[:6]),
		cl:     newClient(addr, hashSlot(Key(name, "window"))),
	}, nil
}

// Key returns the name of one of budget name's keys: "window" (the counts)
// or "slots" (the leases). The braces keep a budget's keys in one hash
// slot of a Redis Cluster.
func Key(name, kind string) string { return "retry:budget:{" + name + "}:" + kind }

// Name returns the budget's name.
func (s *Store) Name() string { return s.name }

// Close closes the connection. Slots taken stay held until released.
func (s *Store) Close() error {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.cl.close()
}

// RecordFirst counts a first attempt.
func (s *Store) RecordFirst(ctx context.Context, deadline time.Time) (budget.Snapshot, error) {
	_, snap, err := s.count(ctx, deadline, "first")
	return snap, err
}

// TryRetry asks for one retry, and counts it when the window allows it.
func (s *Store) TryRetry(ctx context.Context, deadline time.Time) (bool, budget.Snapshot, error) {
	return s.count(ctx, deadline, "retry")
}

// Peek returns the window's counts without changing them.
func (s *Store) Peek(ctx context.Context) (budget.Snapshot, error) {
	_, snap, err := s.count(ctx, time.Time{}, "peek")
	return snap, err
}

// count runs the window script for op.
func (s *Store) count(ctx context.Context, deadline time.Time, op string) (bool, budget.Snapshot, error) {
	milli := int64(math.Round(s.policy.Ratio * 1000))
	v, err := s.call(ctx, deadline, s.window, Key(s.name, "window"), op,
		strconv.Itoa(s.policy.Floor), strconv.FormatInt(milli, 10),
		strconv.Itoa(int(budget.Window/time.Second)), strconv.Itoa(int(windowTTL/time.Second)))
	if err != nil {
		return false, budget.Snapshot{}, err
	}
	n, ok := ints(v, 4)
	if !ok {
		return false, budget.Snapshot{}, s.fail(errors.New("unexpected reply to the budget script"))
	}
	return n[0] == 1, budget.Snapshot{Firsts: n[1], Retries: n[2], Allowance: n[3]}, nil
}

// Acquire waits for one of the budget's n slots, fleet-wide, and takes it,
// within deadline (zero: none): then it fails with budget.ErrDeadline.
// The slot's lease is renewed every Options.Renew until it is released.
func (s *Store) Acquire(ctx context.Context, n int, deadline time.Time) (*budget.Slot, error) {
	if n < 1 || n > budget.MaxSlots {
		return nil, fmt.Errorf("budget %q: concurrency cap must be between 1 and %d, got %d", s.name, budget.MaxSlots, n)
	}
	clk := s.opts.Clock
	start := clk.Now()
	step := slotPollMin
	holder := s.holder + ":" + strconv.FormatInt(s.held.Add(1), 10)
	for {
		took, err := s.slot(ctx, deadline, "take", holder, n)
		if err != nil {
			return nil, err
		}
		if took {
			return s.hold(holder, clk.Now().Sub(start)), nil
		}
		d := step
		if !deadline.IsZero() {
			d = min(d, deadline.Sub(clk.Now()))
		}
		if err := clk.Sleep(ctx, d); err != nil {
			return nil, err
		}
		step = min(2*step, slotPollMax)
	}
}

// hold starts renewing the lease holder has just taken and returns its
// slot.
func (s *Store) hold(holder string, waited time.Duration) *budget.Slot {
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		t := time.NewTicker(s.opts.Renew)
		defer t.Stop()
		for {
			select {
			case <-ctx.Done():
				return
			case <-t.C:
				// A renewal that fails lets the attempt run on; the
				// next one tries again.
				_, _ = s.slot(ctx, time.Time{}, "renew", holder, 0)
			}
		}
	}()
	return budget.NewSlot(0, waited, func() error {
		cancel()
		<-done
		_, err := s.slot(context.Background(), time.Time{}, "release", holder, 0)
		return err
	})
}

// slot runs the slot script for op on holder's lease and reports whether
// it answered 1.
func (s *Store) slot(ctx context.Context, deadline time.Time, op, holder string, n int) (bool, error) {
	v, err := s.call(ctx, deadline, s.slots, Key(s.name, "slots"), op, holder,
		strconv.Itoa(n), strconv.FormatInt(s.opts.Lease.Milliseconds(), 10))
	if err != nil {
		return false, err
	}
	got, ok := v.(int64)
	if !ok {
		return false, s.fail(errors.New("unexpected reply to the slot script"))
	}
	return got == 1, nil
}

// call runs sc on key with args, within Options.Timeout and deadline. It
// returns ctx's error when ctx ends the call, budget.ErrDeadline when the
// deadline does, and a *budget.StoreError for every other failure.
func (s *Store) call(ctx context.Context, deadline time.Time, sc script, key string, args ...string) (any, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	clk := s.opts.Clock
	if !deadline.IsZero() && !clk.Now().Before(deadline) {
		return nil, budget.ErrDeadline
	}
	bound := s.opts.Timeout
	if !deadline.IsZero() {
		bound = min(bound, deadline.Sub(clk.Now()))
	}
	cctx, cancel := context.WithTimeout(ctx, bound)
	defer cancel()
	s.mu.Lock()
	v, err := s.cl.eval(cctx, sc, key, args)
	s.mu.Unlock()
	switch {
	case err == nil:
		return v, nil
	case ctx.Err() != nil:
		return nil, ctx.Err()
	case !deadline.IsZero() && !clk.Now().Before(deadline):
		return nil, budget.ErrDeadline
	case cctx.Err() != nil || errors.Is(err, os.ErrDeadlineExceeded):
		// The connection's deadline is cctx's, and may pass first.
		err = fmt.Errorf("no answer within %v", s.opts.Timeout)
	}
	return nil, s.fail(err)
}

// fail wraps err as this store's failure.
func (s *Store) fail(err error) error {
	return &budget.StoreError{Store: s.addr.String(), Err: err}
}

// ints reads a reply that is an array of n integers.
func ints(v any, n int) ([]int64, bool) {
	items, ok := v.([]any)
	if !ok || len(items) != n {
		return nil, false
	}
	out := make([]int64, n)
	for i, it := range items {
		if out[i], ok = it.(int64); !ok {
			return nil, false
		}
	}
	return out, true
}
