package main

import (
	"context"
	"fmt"
	"io"
	"math/rand/v2"
	"os"
	"sync"
	"sync/atomic"
	"time"

	"github.com/b0a38808/retry/internal/redistest"
	"github.com/b0a38808/retry/runner/backoff"
	"github.com/b0a38808/retry/runner/budget"
	"github.com/b0a38808/retry/runner/budget/redisstore"
)

// simConfig is the simulation of many clients on one budget name.
type simConfig struct {
	clients  int           // simulated clients
	interval time.Duration // each starts one operation per interval
	duration time.Duration // operations start for this long
	conns    int           // connections to the store, shared by the clients
	saturate time.Duration // then the name is asked as fast as it answers for this long
	seed     uint64
	attempts int
	deadline time.Duration
	backoff  backoff.Policy
}

func defaultSim() simConfig {
	return simConfig{
		clients: 10000, interval: 10 * time.Second, duration: 150 * time.Second,
		conns: 100, saturate: 15 * time.Second, seed: 1,
		attempts: 5, deadline: 30 * time.Second,
		backoff: backoff.Policy{Base: time.Second, Cap: 5 * time.Second, Jitter: backoff.Full},
	}
}

// simCounts are a simulation's decisions per second of the Unix clock,
// which is the server's: the store's window runs on it.
type simCounts struct {
	origin                   int64 // the Unix second of index 0
	firsts, granted, refused []atomic.Int64
	errors                   atomic.Int64
	firstErr                 atomic.Value
}

func (c *simCounts) at(now time.Time) int {
	return min(max(int(now.Unix()-c.origin), 0), len(c.firsts)-1)
}

// runSim runs the simulation and writes its figures as Markdown.
func runSim(ctx context.Context, cfg simConfig, w io.Writer) error {
	dir, err := os.MkdirTemp("", "storm-sim-")
	if err != nil {
		return err
	}
	defer os.RemoveAll(dir)
	rs, err := redistest.Start(dir, redistest.Config{})
	if err != nil {
		return err
	}
	defer rs.Stop()
	addr, err := redisstore.ParseURL(rs.URL())
	if err != nil {
		return err
	}
	pol := budget.DefaultPolicy()
	stores := make([]*redisstore.Store, cfg.conns)
	for i := range stores {
		if stores[i], err = redisstore.Open(addr, "sim", pol, redisstore.Options{}); err != nil {
			return err
		}
		defer stores[i].Close()
	}
	version, _ := rs.DoString("INFO", "server")

	// The simulation: each client's operations, on the schedule of the
	// storm's clients, against a service that always fails.
	ops := schedule(plan{clients: cfg.clients, interval: cfg.interval, before: cfg.duration, seed: cfg.seed})
	start := time.Now()
	cnt := &simCounts{origin: start.Unix()}
	n := int(cfg.duration/time.Second) + int(cfg.deadline/time.Second) + 10
	cnt.firsts, cnt.granted, cnt.refused = make([]atomic.Int64, n), make([]atomic.Int64, n), make([]atomic.Int64, n)
	cpu0 := redisCPU(rs)
	var wg sync.WaitGroup
	var lateness time.Duration
	for i, o := range ops {
		if err := sleepUntil(ctx, start.Add(o.at)); err != nil {
			return err
		}
		lateness = max(lateness, time.Since(start)-o.at)
		wg.Add(1)
		go func() {
			defer wg.Done()
			simOp(ctx, cfg, stores[o.client%len(stores)], cnt, rand.New(rand.NewPCG(cfg.seed, uint64(i))))
		}()
	}
	wg.Wait()
	wall := time.Since(start)
	cpu := redisCPU(rs) - cpu0
	var decisions int64
	for i := range cnt.firsts {
		decisions += cnt.firsts[i].Load() + cnt.granted[i].Load() + cnt.refused[i].Load()
	}

	// The rule, second by second once the window is full: the retries
	// granted in the last minute against the allowance of the first
	// attempts in it.
	win := int(budget.Window / time.Second)
	var sumGranted, sumAllowed int64
	worst, best := 0.0, 2.0
	last := cnt.at(start.Add(cfg.duration)) - 1
	for s := win + 1; s <= last; s++ {
		var f, g int64
		for j := s - win + 1; j <= s; j++ {
			f += cnt.firsts[j].Load()
			g += cnt.granted[j].Load()
		}
		a := pol.Allowance(f)
		sumGranted += g
		sumAllowed += a
		r := float64(g) / float64(a)
		worst, best = max(worst, r), min(best, r)
	}

	// Saturation: every connection asks the same name as fast as it
	// answers, a first attempt and a retry in turn, while the window
	// still holds a minute of fields.
	satCPU0 := redisCPU(rs)
	satStart := time.Now()
	var satCalls atomic.Int64
	sctx, cancel := context.WithTimeout(ctx, cfg.saturate)
	var swg sync.WaitGroup
	for _, st := range stores {
		swg.Add(1)
		go func() {
			defer swg.Done()
			for k := 0; sctx.Err() == nil; k++ {
				var err error
				if k%2 == 0 {
					_, err = st.RecordFirst(sctx, time.Time{})
				} else {
					_, _, err = st.TryRetry(sctx, time.Time{})
				}
				if err == nil {
					satCalls.Add(1)
				}
			}
		}()
	}
	swg.Wait()
	cancel()
	satWall := time.Since(satStart)
	satCPU := redisCPU(rs) - satCPU0

	fmt.Fprintf(w, "%d simulated clients, each starting one operation every %v for %v (%.0f first attempts/s) against a service that always fails; "+
		"each operation asks for up to %d retries with full jitter (base %v, cap %v), through %d connections to one redis-server (%s), budget ratio %v, floor %d.\n\n",
		cfg.clients, cfg.interval, cfg.duration, float64(cfg.clients)/cfg.interval.Seconds(),
		cfg.attempts-1, cfg.backoff.Base, cfg.backoff.Cap, cfg.conns, redisVersion(version), pol.Ratio, pol.Floor)
	fmt.Fprintf(w, "| figure | value |\n|---|--:|\n")
	if sumAllowed > 0 {
		fmt.Fprintf(w, "| retries granted / the rule's allowance, each full minute (%d windows) | %.3f (each window %.3f to %.3f) |\n",
			last-win, float64(sumGranted)/float64(sumAllowed), best, worst)
	}
	fmt.Fprintf(w, "| decisions during the simulation | %s in %.1f s: %.0f/s |\n", thousands(decisions), wall.Seconds(), float64(decisions)/wall.Seconds())
	fmt.Fprintf(w, "| redis-server CPU during the simulation | %.1f%% of one core: %.1f us a decision |\n",
		100*cpu/wall.Seconds(), 1e6*cpu/float64(decisions))
	fmt.Fprintf(w, "| one name asked as fast as it answers (%d connections, %v) | %.0f decisions/s |\n",
		cfg.conns, cfg.saturate, float64(satCalls.Load())/satWall.Seconds())
	perDecision := satCPU / float64(satCalls.Load())
	fmt.Fprintf(w, "| redis-server CPU then | %.0f%% of one core: %.1f us a decision |\n", 100*satCPU/satWall.Seconds(), 1e6*perDecision)
	fmt.Fprintf(w, "| one name's ceiling: one core / CPU a decision | %.0f decisions/s |\n", 1/perDecision)
	fmt.Fprintf(w, "| store errors (failed open) | %d |\n", cnt.errors.Load())
	fmt.Fprintf(w, "| latest start of an operation | %v late |\n", lateness.Round(time.Millisecond))
	l := loadavg()
	fmt.Fprintf(w, "\nLoad average at the end: %.2f %.2f %.2f.\n", l[0], l[1], l[2])
	if e := cnt.firstErr.Load(); e != nil {
		fmt.Fprintf(w, "First store error: %v\n", e)
	}
	if sumAllowed == 0 {
		return fmt.Errorf("the simulation ran %v: too short to fill the %v window", cfg.duration, budget.Window)
	}
	if r := float64(sumGranted) / float64(sumAllowed); r < 0.95 || r > 1.05 {
		return fmt.Errorf("retries granted are %.3f of what the rule allows: more than 5%% off", r)
	}
	return nil
}

// simOp is one operation of a simulated client: its first attempt, then
// a retry after each failure while the budget grants one, as retry's
// runner does (it asks before the wait).
func simOp(ctx context.Context, cfg simConfig, st *redisstore.Store, cnt *simCounts, rng *rand.Rand) {
	deadline := time.Now().Add(cfg.deadline)
	fail := func(err error) {
		cnt.errors.Add(1)
		cnt.firstErr.CompareAndSwap(nil, err)
	}
	if _, err := st.RecordFirst(ctx, deadline); err != nil {
		fail(err)
		return
	}
	cnt.firsts[cnt.at(time.Now())].Add(1)
	for retry := 0; retry < cfg.attempts-1; retry++ {
		delay, err := cfg.backoff.Delay(retry, rng)
		if err != nil {
			panic(err)
		}
		ok, _, err := st.TryRetry(ctx, deadline)
		if err != nil {
			fail(err)
			return
		}
		if !ok {
			cnt.refused[cnt.at(time.Now())].Add(1)
			return
		}
		cnt.granted[cnt.at(time.Now())].Add(1)
		if err := sleepUntil(ctx, time.Now().Add(delay)); err != nil {
			return
		}
	}
}
