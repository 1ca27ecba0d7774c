package budget

import (
	"context"
	"errors"
	"fmt"
	"os"
	"time"

	"github.com/b0a38808/retry/runner/clock"
)

// errNotRegular marks a state file that is a symlink or not a regular file.
var errNotRegular = errors.New("not a regular file")

// maxNameLen bounds a budget's name, which is part of its file names.
const maxNameLen = 64

// Budget is one named budget, open in one process. Its methods are safe for
// concurrent use; every process and every Budget value that opens the same
// name in the same directory shares the same counts.
type Budget struct {
	name   string
	policy Policy
	dir    *stateDir
	now    func() time.Time
	sleep  func(context.Context, time.Duration) error
}

// Snapshot is what one update saw and left in the window.
type Snapshot struct {
	// Firsts is the number of first attempts in the window, the one
	// this update recorded included.
	Firsts int64
	// Retries is the number of retries in the window, the one this
	// update allowed included.
	Retries int64
	// Allowance is the number of retries the window allows in all.
	Allowance int64
	// Warning, when not empty, says that the state file was corrupt and
	// was reset to an empty window before this update.
	Warning string
}

// ValidateName reports whether name can name a budget: 1 to 64 letters,
// digits, '.', '_' or '-', not starting with '.' or '-'.
func ValidateName(name string) error {
	if name == "" || len(name) > maxNameLen {
		return fmt.Errorf("must be 1 to %d characters, got %d", maxNameLen, len(name))
	}
	for i, c := range name {
		switch {
		case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9', c == '_':
		case (c == '.' || c == '-') && i > 0:
		default:
			return fmt.Errorf("may hold only letters, digits, '.', '_' and '-' (not first), got %q", name)
		}
	}
	return nil
}

// Open opens the budget name in the state directory dir, creating the
// directory (mode 0700) and the budget's lock file (mode 0600) when they do
// not exist. It fails when dir is a symlink, is not owned by the effective
// user, is writable by others, or cannot be written. c tells the time and
// sleeps between looks for a free slot; nil means the real clock.
func Open(dir, name string, p Policy, c clock.Clock) (*Budget, error) {
	if err := ValidateName(name); err != nil {
		return nil, fmt.Errorf("budget name: %w", err)
	}
	if err := p.Validate(); err != nil {
		return nil, fmt.Errorf("budget %q: %w", name, err)
	}
	d, err := openStateDir(dir)
	if err != nil {
		return nil, err
	}
	// Create the lock file now, so that a directory that cannot be
	// written is reported before any attempt runs.
	lock, err := d.openFile(name + ".lock")
	if err != nil {
		d.close()
		return nil, err
	}
	lock.Close()
	if c == nil {
		c = clock.Real{}
	}
	b := &Budget{name: name, policy: p, dir: d, now: c.Now, sleep: c.Sleep}
	return b, nil
}

// Name returns the budget's name.
func (b *Budget) Name() string { return b.name }

// Close releases the budget's files. Slots taken from it stay held until
// they are released.
func (b *Budget) Close() error {
	return b.dir.close()
}

// RecordFirst counts a first attempt: the deposit that pays for future
// retries. It waits for the budget's lock until ctx is done, or until
// deadline (zero: none), when it gives up with ErrDeadline and counts
// nothing.
func (b *Budget) RecordFirst(ctx context.Context, deadline time.Time) (Snapshot, error) {
	return b.update(ctx, deadline, func(firsts, retries int64) (int64, int64) { return 1, 0 })
}

// TryRetry asks for one retry. When the window allows it, the retry is
// counted and TryRetry reports true; otherwise nothing changes. It waits
// for the budget's lock until ctx is done, or until deadline (zero:
// none), when it gives up with ErrDeadline and counts nothing.
func (b *Budget) TryRetry(ctx context.Context, deadline time.Time) (bool, Snapshot, error) {
	allowed := false
	snap, err := b.update(ctx, deadline, func(firsts, retries int64) (int64, int64) {
		allowed = b.policy.Allows(firsts, retries)
		if allowed {
			return 0, 1
		}
		return 0, 0
	})
	return allowed, snap, err
}

// Peek returns the window's counts without changing them.
func (b *Budget) Peek(ctx context.Context) (Snapshot, error) {
	return b.update(ctx, time.Time{}, func(int64, int64) (int64, int64) { return 0, 0 })
}

// update runs one read-modify-write of the state file under the budget's
// lock, waiting for the lock until ctx is done or deadline (zero: none)
// comes. decide sees the window's counts and returns what to add to them.
func (b *Budget) update(ctx context.Context, deadline time.Time, decide func(firsts, retries int64) (addFirsts, addRetries int64)) (Snapshot, error) {
	lock, err := b.lock(ctx, deadline)
	if err != nil {
		return Snapshot{}, err
	}
	defer func() {
		unlock(lock)
		lock.Close()
	}()

	file := b.name + ".budget"
	var snap Snapshot
	data, err := b.dir.readFile(file, maxStateSize)
	var st state
	switch {
	case errors.Is(err, errNotRegular):
		snap.Warning = b.corrupt(file, err)
		st = state{Version: stateVersion}
	case err != nil:
		return Snapshot{}, fmt.Errorf("budget %q: %w", b.name, err)
	default:
		st, err = decodeState(data)
		if err != nil {
			snap.Warning = b.corrupt(file, err)
			st = state{Version: stateVersion}
		}
	}
	now := b.now()
	st.prune(now)
	firsts, retries := st.totals()
	addFirsts, addRetries := decide(firsts, retries)
	if addFirsts != 0 || addRetries != 0 {
		st.add(now, addFirsts, addRetries)
	}
	if addFirsts != 0 || addRetries != 0 || snap.Warning != "" {
		if err := b.dir.writeFile(file, st.encode()); err != nil {
			return Snapshot{}, fmt.Errorf("budget %q: cannot save its state: %w", b.name, err)
		}
	}
	snap.Firsts = firsts + addFirsts
	snap.Retries = retries + addRetries
	snap.Allowance = b.policy.Allowance(snap.Firsts)
	return snap, nil
}

// corrupt returns the warning for a state file that could not be used.
func (b *Budget) corrupt(file string, why error) string {
	return fmt.Sprintf("budget %q: state file %s/%s was unusable (%v); started a new window", b.name, b.dir.path, file, why)
}

// lock opens the budget's lock file and locks it, waiting until it is
// free, ctx is done, or deadline (zero: none) comes: then it returns
// ctx's error or ErrDeadline. Each call opens the file anew, so that
// concurrent updates in one process exclude each other as those of
// different processes do. The wait blocks in the kernel, which wakes a
// waiter as soon as the lock is free; when ctx or the deadline comes
// first, the blocked call is left to finish on its own and drops the lock
// as soon as it gets it.
func (b *Budget) lock(ctx context.Context, deadline time.Time) (*os.File, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	if !deadline.IsZero() && !b.now().Before(deadline) {
		return nil, ErrDeadline
	}
	f, err := b.dir.openFile(b.name + ".lock")
	if err != nil {
		return nil, fmt.Errorf("budget %q: %w", b.name, err)
	}
	ok, err := tryLock(f)
	if err == nil && !ok {
		done := make(chan error, 1)
		go func() { done <- waitLock(f) }()
		expired, stop := b.after(ctx, deadline)
		select {
		case err = <-done:
			stop()
		case <-expired:
			stop()
			abandon(f, done)
			return nil, ErrDeadline
		case <-ctx.Done():
			stop()
			abandon(f, done)
			return nil, ctx.Err()
		}
	}
	if err != nil {
		f.Close()
		return nil, fmt.Errorf("budget %q: %w", b.name, err)
	}
	return f, nil
}

// abandon leaves a wait for f's lock that nobody waits for any more to
// finish on its own: it drops the lock as soon as it gets it, and closes
// f. done receives the wait's error.
func abandon(f *os.File, done <-chan error) {
	go func() {
		if <-done == nil {
			unlock(f)
		}
		f.Close()
	}()
}

// after returns a channel that is closed when deadline comes, as the
// budget's clock tells, and a function that stops the timer and returns
// once it has stopped. A zero deadline never comes.
func (b *Budget) after(ctx context.Context, deadline time.Time) (expired <-chan struct{}, stop func()) {
	if deadline.IsZero() {
		return nil, func() {}
	}
	ctx, cancel := context.WithCancel(ctx)
	d := deadline.Sub(b.now())
	fired, ended := make(chan struct{}), make(chan struct{})
	go func() {
		defer close(ended)
		if b.sleep(ctx, d) == nil && ctx.Err() == nil {
			close(fired)
		}
	}()
	return fired, func() {
		cancel()
		<-ended
	}
}

// unwrapPath strips the *PathError wrapper, whose path the message already
// names.
func unwrapPath(err error) error {
	var pe *os.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
