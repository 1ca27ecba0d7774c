package main

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"strconv"
	"sync"
	"time"

	"github.com/b0a38808/retry/internal/redistest"
	"github.com/b0a38808/retry/runner/budget"
)

// plan is the offered load and the outage, the same for every policy.
type plan struct {
	clients  int           // client loops
	interval time.Duration // each client starts one operation per interval
	before   time.Duration // the service answers 200 for this long,
	outage   time.Duration // then 503 for this long,
	after    time.Duration // then 200 again for this long
	seed     uint64        // the clients' phases and jitter
	// retryFlags are given to every retry, before the policy's own.
	retryFlags []string
	deadline   time.Duration // the -d among retryFlags
	// rule is the budget's, for the goals: retry's default, which no
	// flag changes.
	rule budget.Policy
}

// span is the time over which operations start.
func (p plan) span() time.Duration { return p.before + p.outage + p.after }

// offered is the stated rate of first attempts, per second.
func (p plan) offered() float64 { return float64(p.clients) / p.interval.Seconds() }

// state says where a policy's clients keep their machine-local state.
type state int

const (
	sharedState state = iota // one XDG_STATE_HOME for all: one machine
	ownState                 // one XDG_STATE_HOME each: a machine each
)

// policy is one way of running the same clients.
type policy struct {
	n     int // its number, from 1
	name  string
	flags []string // given to every retry, after plan.retryFlags
	state state
	store bool // start a redis-server and give --budget-store
	// budget says that plan.rule bounds the
	// service's load, shared by all clients.
	budget bool
}

// policies are the five the storm compares.
func policies() []policy {
	return []policy{
		{n: 1, name: "no jitter", flags: []string{"--jitter", "none"}},
		{n: 2, name: "defaults", flags: nil},
		{n: 3, name: "shared budget", flags: []string{"--budget", "storm"}, budget: true},
		{n: 4, name: "fleet budget (Redis)", flags: []string{"--budget", "storm"}, state: ownState, store: true, budget: true},
		{n: 5, name: "own budget each", flags: []string{"--budget", "storm"}, state: ownState},
	}
}

// tools are the programs a storm runs: retry, around the client.
type tools struct {
	retry    string   // the retry binary
	client   string   // the client binary
	env      []string // the environment of every retry, without XDG_STATE_HOME
	describe string   // what retry is: its version and where it came from
}

// op is one operation: one retry process.
type op struct {
	client int
	at     time.Duration // when it was due, from the service's start
	lag    time.Duration // how late it started
	wall   time.Duration // from its start until wait4 returned
	maxRSS int64         // bytes, from wait4's rusage (0 where unknown)
	rep    report
	err    error // the process could not be run or said nothing
}

// report is the part of retry's JSON report the storm reads.
type report struct {
	Outcome       string     `json:"outcome"`
	ElapsedMS     float64    `json:"elapsed_ms"`
	DeadlineMS    float64    `json:"deadline_ms"`
	Attempts      []struct{} `json:"attempts"`
	AttemptsTotal int        `json:"attempts_total"`
}

// run is what one policy's storm left.
type run struct {
	policy           policy
	firsts, retries  []int64 // the service's counts per bin
	ops              []op
	storeCPU         float64 // seconds of CPU the redis-server used, with a store
	elapsed          time.Duration
	loadBefore, load [3]float64 // the machine's load averages before and after
}

// schedule returns when each client's operations are due, in order: one
// per interval from a phase of its own, each moved by up to a tenth of the
// interval either way.
func schedule(p plan) []op {
	rng := rand.New(rand.NewPCG(p.seed, 0x5107))
	var ops []op
	j := p.interval / 10
	for c := range p.clients {
		phase := time.Duration(rng.Int64N(int64(p.interval)))
		for k := 0; ; k++ {
			at := phase + time.Duration(k)*p.interval + time.Duration(rng.Int64N(int64(2*j)+1)) - j
			if at >= p.span() {
				break
			}
			ops = append(ops, op{client: c, at: max(at, 0)})
		}
	}
	slices.SortStableFunc(ops, func(a, b op) int { return int(a.at - b.at) })
	return ops
}

// runPolicy runs the storm once under pol, in the empty directory dir.
func runPolicy(ctx context.Context, p plan, pol policy, t tools, dir string) (run, error) {
	res := run{policy: pol, loadBefore: loadavg()}
	flags := slices.Clone(pol.flags)
	var rs *redistest.Server
	if pol.store {
		rdir := filepath.Join(dir, "redis")
		if err := os.Mkdir(rdir, 0o700); err != nil {
			return res, err
		}
		var err error
		if rs, err = redistest.Start(rdir, redistest.Config{}); err != nil {
			return res, err
		}
		defer rs.Stop()
		flags = append(flags, "--budget-store", rs.URL())
	}
	cpu0 := redisCPU(rs)
	ops := schedule(p)
	// The budget counts per second of the clock: started on a whole
	// second, the outage's minute is one window of the budget's.
	if err := sleepUntil(ctx, time.Now().Truncate(time.Second).Add(time.Second)); err != nil {
		return res, err
	}
	ends := p.before + p.outage
	if p.after == 0 {
		ends = math.MaxInt64 // the outage never ends
	}
	// Bins for the operations' last retries too: a deadline after the
	// last start.
	svc, err := startService(p.before, ends, p.span()+p.deadline+10*time.Second)
	if err != nil {
		return res, err
	}
	defer svc.stop()
	var wg sync.WaitGroup
	for i := range ops {
		if err := sleepUntil(ctx, svc.start.Add(ops[i].at)); err != nil {
			break
		}
		o := &ops[i]
		o.lag = time.Since(svc.start) - o.at
		wg.Add(1)
		go func() {
			defer wg.Done()
			runOp(o, p, flags, pol, t, svc.addr, dir, i)
		}()
	}
	wg.Wait()
	res.elapsed = time.Since(svc.start)
	res.firsts, res.retries = svc.counts()
	res.ops = ops
	res.storeCPU = redisCPU(rs) - cpu0
	res.load = loadavg()
	return res, ctx.Err()
}

// runOp runs operation number n, o, and fills in what it did.
func runOp(o *op, p plan, flags []string, pol policy, t tools, addr, dir string, n int) {
	sum := filepath.Join(dir, "op-"+strconv.Itoa(n)+".json")
	args := []string{"-q", "--summary", "none", "--summary-file", sum}
	args = append(args, p.retryFlags...)
	args = append(args, flags...)
	args = append(args, "--", t.client, addr)
	cmd := exec.Command(t.client, append([]string{"-spawn", t.retry}, args...)...)
	home := filepath.Join(dir, "state")
	if pol.state == ownState {
		home = filepath.Join(dir, "state-"+strconv.Itoa(o.client))
	}
	cmd.Env = append(slices.Clone(t.env), "XDG_STATE_HOME="+home)
	out, err := cmd.Output()
	var code int
	var ns int64
	if err == nil {
		_, err = fmt.Sscan(string(out), &code, &o.maxRSS, &ns)
		o.wall = time.Duration(ns)
	}
	data, rerr := os.ReadFile(sum)
	if rerr != nil {
		if err == nil {
			err = rerr
		}
		o.err = fmt.Errorf("retry %v: %v", args, err)
		return
	}
	os.Remove(sum)
	if err := json.Unmarshal(data, &o.rep); err != nil {
		o.err = fmt.Errorf("%s: %v", sum, err)
	}
}

// sleepUntil sleeps until t, or until ctx is done.
func sleepUntil(ctx context.Context, t time.Time) error {
	d := time.Until(t)
	if d <= 0 {
		return ctx.Err()
	}
	timer := time.NewTimer(d)
	defer timer.Stop()
	select {
	case <-timer.C:
		return nil
	case <-ctx.Done():
		return ctx.Err()
	}
}

// loadavg returns the machine's load averages, or zeros where /proc has
// none.
func loadavg() [3]float64 {
	var l [3]float64
	data, err := os.ReadFile("/proc/loadavg")
	if err == nil {
		fmt.Sscan(string(data), &l[0], &l[1], &l[2])
	}
	return l
}
