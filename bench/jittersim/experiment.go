package main

import (
	"math/rand/v2"
	"time"
)

// config is one whole experiment: every strategy against every number of
// clients, each race repeated and averaged.
type config struct {
	seed    uint64
	races   int   // races per (clients, strategy) cell
	clients []int // numbers of contending clients, ascending
	model   model
}

// defaultConfig is the experiment whose results docs/jitter.md shows.
func defaultConfig() config {
	return config{
		seed:    1,
		races:   100,
		clients: []int{10, 20, 30, 40, 50, 60, 70, 80, 90, 100},
		model: model{
			netMean: 10 * time.Millisecond,
			netSD:   2 * time.Millisecond,
			base:    5 * time.Millisecond,
			cap:     2 * time.Second,
		},
	}
}

// cell sums the outcomes of the races of one strategy at one number of
// clients. Sums, not float means, so that the output is exact.
type cell struct {
	calls int64
	time  time.Duration
	races int
}

// meanCalls10 returns ten times the mean calls per race, rounded.
func (c cell) meanCalls10() int64 { return (10*c.calls + int64(c.races)/2) / int64(c.races) }

// meanTime returns the mean time to completion.
func (c cell) meanTime() time.Duration { return c.time / time.Duration(c.races) }

// results holds the cells of an experiment: results.cells[i][s] is
// clients[i] against strategies()[s].
type results struct {
	cfg        config
	strategies []strategy
	cells      [][]cell
}

// run performs the experiment. Each race draws from its own random stream,
// derived from the seed and the race's coordinates, so a cell does not
// depend on which cells ran before it.
func run(cfg config) results {
	res := results{cfg: cfg, strategies: strategies()}
	for _, n := range cfg.clients {
		row := make([]cell, len(res.strategies))
		for si, s := range res.strategies {
			for i := range cfg.races {
				stream := uint64(n)<<40 | uint64(si)<<32 | uint64(i)
				o := race(cfg.model, s, n, rand.New(rand.NewPCG(cfg.seed, stream)))
				row[si].calls += int64(o.calls)
				row[si].time += o.time
				row[si].races++
			}
		}
		res.cells = append(res.cells, row)
	}
	return res
}

// find returns the index of the strategy named name, or -1.
func (r results) find(name string) int {
	for i, s := range r.strategies {
		if s.name == name {
			return i
		}
	}
	return -1
}
