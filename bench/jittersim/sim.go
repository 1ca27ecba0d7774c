package main

import (
	"math/rand/v2"
	"time"

	"github.com/b0a38808/retry/runner/backoff"
)

// model holds the fixed parameters of one simulated race. The defaults
// follow the AWS Architecture Blog post "Exponential Backoff And Jitter"
// (Marc Brooker, 2015): a network with a mean delay of 10ms and a standard
// deviation of 2ms, a base of 5ms and a cap of 2s.
type model struct {
	netMean time.Duration // mean one-way network delay
	netSD   time.Duration // its standard deviation
	base    time.Duration // the backoff base (retry's --delay)
	cap     time.Duration // the backoff cap (retry's --max-delay)
}

// strategy is one way of choosing the wait after a conflict.
type strategy struct {
	name string
	// newClient returns the wait function of one client: it is called
	// with the retry index (0 for the first retry) after each conflict.
	// A fresh function per client keeps per-client state private, which
	// decorrelated jitter needs.
	newClient func(m model) func(retryIndex int, r *rand.Rand) time.Duration
}

// strategies returns the compared policies in table order. The three
// exponential ones are the project's own runner/backoff, called exactly as
// the runner calls it; "no backoff" and "decorrelated" exist only here.
func strategies() []strategy {
	project := func(j backoff.Jitter) func(m model) func(int, *rand.Rand) time.Duration {
		return func(m model) func(int, *rand.Rand) time.Duration {
			p := backoff.Policy{Base: m.base, Cap: m.cap, Jitter: j}
			return func(i int, r *rand.Rand) time.Duration {
				d, err := p.Delay(i, r)
				if err != nil {
					panic(err) // the model's parameters are valid by construction
				}
				return d
			}
		}
	}
	return []strategy{
		{"no backoff", func(model) func(int, *rand.Rand) time.Duration {
			return func(int, *rand.Rand) time.Duration { return 0 }
		}},
		{"exponential, no jitter", project(backoff.None)},
		{"equal jitter", project(backoff.Equal)},
		{"full jitter", project(backoff.Full)},
		{"decorrelated jitter", decorrelated},
	}
}

// decorrelated is the blog post's decorrelated jitter: each wait is drawn
// uniformly from [base, 3*previous wait), capped, starting from the base.
// retry does not offer it; it is here for comparison only.
func decorrelated(m model) func(int, *rand.Rand) time.Duration {
	sleep := m.base
	return func(_ int, r *rand.Rand) time.Duration {
		hi := 3 * sleep
		if hi > m.base {
			sleep = m.base + time.Duration(r.Int64N(int64(hi-m.base)))
		}
		sleep = min(m.cap, sleep)
		return sleep
	}
}

// outcome is what one race of n clients cost.
type outcome struct {
	calls int           // write attempts the store received, conflicts included
	time  time.Duration // when the last client learnt that its write succeeded
}

// netDelay draws a one-way network delay: approximately normal with the
// model's mean and standard deviation, folded at zero. The normal is the
// Irwin-Hall sum of 12 uniform 16-bit draws, in integer nanoseconds, so the
// results are the same bit for bit on every platform (floating-point
// results may differ across architectures, which would make the committed
// docs drift).
func (m model) netDelay(r *rand.Rand) time.Duration {
	// Each draw from [0, 2^16) has variance 2^32/12; twelve sum to 2^32,
	// a standard deviation of 2^16.
	var sum int64
	for range 3 {
		x := r.Uint64()
		for range 4 {
			sum += int64(x & 0xffff)
			x >>= 16
		}
	}
	d := m.netMean + time.Duration((sum-6<<16)*int64(m.netSD)>>16)
	if d < 0 {
		d = -d
	}
	return d
}

// The messages of the optimistic concurrency protocol.
const (
	readArrives  = iota // a read request reaches the store
	readReturns         // the current version reaches the client
	writeArrives        // a conditional write reaches the store
	writeReturns        // the write's result reaches the client
)

// event is a message in flight, delivered at its time.
type event struct {
	at      time.Duration
	seq     int32 // breaks ties in send order, so a run is deterministic
	client  int32
	version int32 // the version read, or the version the write expects
	kind    uint8
	ok      bool // whether the write succeeded
}

// queue is a binary min-heap of events ordered by delivery time, then by
// send order. (container/heap would box every event.)
type queue []event

func (q queue) less(i, j int) bool {
	if q[i].at != q[j].at {
		return q[i].at < q[j].at
	}
	return q[i].seq < q[j].seq
}

func (q *queue) push(e event) {
	*q = append(*q, e)
	h := *q
	for i := len(h) - 1; i > 0; {
		parent := (i - 1) / 2
		if !h.less(i, parent) {
			break
		}
		h[i], h[parent] = h[parent], h[i]
		i = parent
	}
}

func (q *queue) pop() event {
	h := *q
	top := h[0]
	last := len(h) - 1
	h[0] = h[last]
	h = h[:last]
	for i := 0; ; {
		small, l, r := i, 2*i+1, 2*i+2
		if l < len(h) && h.less(l, small) {
			small = l
		}
		if r < len(h) && h.less(r, small) {
			small = r
		}
		if small == i {
			break
		}
		h[i], h[small] = h[small], h[i]
		i = small
	}
	*q = h
	return top
}

// race runs n clients that all start at time zero and each want to update
// one row once, with optimistic concurrency: read the row's version, then
// write conditionally on it. The store accepts the write only if the
// version is still current; otherwise the client waits as its strategy
// says and starts over with a new read. Every message crosses the network.
func race(m model, s strategy, n int, r *rand.Rand) outcome {
	var (
		q       queue
		seq     int
		version int // the row's current version
		res     outcome
	)
	send := func(at time.Duration, client, kind, version int, ok bool) {
		seq++
		q.push(event{at: at, seq: int32(seq), client: int32(client), kind: uint8(kind), version: int32(version), ok: ok})
	}
	wait := make([]func(int, *rand.Rand) time.Duration, n)
	retries := make([]int, n)
	for c := range n {
		wait[c] = s.newClient(m)
		send(m.netDelay(r), c, readArrives, 0, false)
	}
	for len(q) > 0 {
		e := q.pop()
		c := int(e.client)
		res.time = e.at
		switch e.kind {
		case readArrives:
			send(e.at+m.netDelay(r), c, readReturns, version, false)
		case readReturns:
			send(e.at+m.netDelay(r), c, writeArrives, int(e.version), false)
		case writeArrives:
			res.calls++
			ok := int(e.version) == version
			if ok {
				version++
			}
			send(e.at+m.netDelay(r), c, writeReturns, 0, ok)
		case writeReturns:
			if e.ok {
				continue
			}
			d := wait[c](retries[c], r)
			retries[c]++
			send(e.at+d+m.netDelay(r), c, readArrives, 0, false)
		}
	}
	return res
}
