package budget

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"time"
)

// MaxSlots is the largest concurrency cap Acquire accepts.
const MaxSlots = 1024

// Slot polling: a waiter tries every slot, then sleeps, doubling the sleep
// from slotPollMin to slotPollMax. A freed slot is taken within
// slotPollMax; waiters are not served in order.
const (
	slotPollMin = 2 * time.Millisecond
	slotPollMax = 50 * time.Millisecond
)

// ErrDeadline is returned by Acquire, RecordFirst and TryRetry when the
// deadline came before a slot, or the budget's lock, was free.
var ErrDeadline = errors.New("deadline reached while waiting for the budget")

// Slot is one of a budget's concurrency slots, held until Release. It is a
// lock on the file NAME.slot.INDEX: the kernel drops the lock when the
// holding process dies, however it dies, so a crash never leaks a slot.
// The file is opened close-on-exec, so an attempt's processes do not
// inherit it.
type Slot struct {
	// Index is the slot's number, from 0.
	Index int
	// Waited is how long Acquire waited for it.
	Waited time.Duration

	f       *os.File
	release func() error // a slot held elsewhere (NewSlot)
}

// Acquire waits for one of the budget's first n slots to be free and takes
// it, so that at most n holders that ask with the same n run at once. It
// gives up with ctx's error when ctx is done and with ErrDeadline when
// deadline (zero: none) comes first.
func (b *Budget) Acquire(ctx context.Context, n int, deadline time.Time) (*Slot, error) {
	if n < 1 || n > MaxSlots {
		return nil, fmt.Errorf("budget %q: concurrency cap must be between 1 and %d, got %d", b.name, MaxSlots, n)
	}
	start := b.now()
	step := slotPollMin
	for {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		now := b.now()
		if !deadline.IsZero() && !now.Before(deadline) {
			return nil, ErrDeadline
		}
		s, err := b.tryAcquire(n)
		if err != nil {
			return nil, err
		}
		if s != nil {
			s.Waited = b.now().Sub(start)
			return s, nil
		}
		d := step
		if !deadline.IsZero() {
			d = min(d, deadline.Sub(now))
		}
		if err := b.sleep(ctx, d); err != nil {
			return nil, err
		}
		step = min(2*step, slotPollMax)
	}
}

// tryAcquire takes the first free slot of n, or returns nil when all are
// held.
func (b *Budget) tryAcquire(n int) (*Slot, error) {
	for i := range n {
		f, err := b.dir.openFile(b.name + ".slot." + strconv.Itoa(i))
		if err != nil {
			return nil, fmt.Errorf("budget %q: %w", b.name, err)
		}
		ok, err := tryLock(f)
		if err != nil {
			f.Close()
			return nil, fmt.Errorf("budget %q: %w", b.name, err)
		}
		if ok {
			return &Slot{Index: i, f: f}, nil
		}
		f.Close()
	}
	return nil, nil
}

// Release frees the slot. Releasing a slot twice does nothing.
func (s *Slot) Release() error {
	if s != nil && s.release != nil {
		release := s.release
		s.release = nil
		return release()
	}
	if s == nil || s.f == nil {
		return nil
	}
	f := s.f
	s.f = nil
	return errors.Join(unlock(f), f.Close())
}
