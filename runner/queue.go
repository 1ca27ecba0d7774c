package runner

import (
	"io"
	"sync"
)

// queueLimit bounds what a queuedWriter holds for a slow destination. An
// attempt that writes faster than that blocks, as it would on the
// destination itself.
const queueLimit = 1 << 20

// queuedWriter passes what is written to it on to dst from a goroutine of
// its own, holding up to queueLimit bytes meanwhile. It sits between an
// attempt's watched pipe and retry's stdout or stderr, so that reading the
// pipe never waits for a slow destination: once the attempt's process
// exits, os/exec gives the pipe only a short grace (pipeGrace) before it
// closes it, and what the copy had not read by then would be lost, not
// merely late.
type queuedWriter struct {
	dst io.Writer

	mu      sync.Mutex
	cond    sync.Cond
	buf     []byte // queued, not yet given to dst
	spare   []byte // the buffer dst last wrote from, for reuse
	err     error  // dst's first error; nothing is written after it
	writing bool   // the goroutine runs
	closed  bool
	done    chan struct{}
}

func newQueuedWriter(dst io.Writer) *queuedWriter {
	q := &queuedWriter{dst: dst, done: make(chan struct{})}
	q.cond.L = &q.mu
	return q
}

// Write queues p, waiting while the queue is full. It fails once dst has
// failed, so that the copy stops as it would have on dst itself.
func (q *queuedWriter) Write(p []byte) (int, error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	for q.err == nil && len(q.buf) > 0 && len(q.buf)+len(p) > queueLimit {
		q.cond.Wait()
	}
	if q.err != nil {
		return 0, q.err
	}
	q.buf = append(q.buf, p...)
	if !q.writing {
		q.writing = true
		go q.drain()
	}
	q.cond.Broadcast()
	return len(p), nil
}

// drain writes the queue out to dst until Close.
func (q *queuedWriter) drain() {
	defer close(q.done)
	q.mu.Lock()
	defer q.mu.Unlock()
	for {
		for len(q.buf) == 0 && !q.closed {
			q.cond.Wait()
		}
		if len(q.buf) == 0 {
			return
		}
		chunk := q.buf
		q.buf, q.spare = q.spare[:0], nil
		q.mu.Unlock()
		_, err := q.dst.Write(chunk)
		q.mu.Lock()
		q.spare = chunk
		if err != nil && q.err == nil {
			q.err = err
		}
		if q.err != nil {
			q.buf = q.buf[:0]
		}
		q.cond.Broadcast()
	}
}

// Close waits until everything queued has been written to dst, and
// returns dst's first error.
func (q *queuedWriter) Close() error {
	q.mu.Lock()
	q.closed = true
	writing := q.writing
	q.cond.Broadcast()
	q.mu.Unlock()
	if writing {
		<-q.done
	}
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.err
}
