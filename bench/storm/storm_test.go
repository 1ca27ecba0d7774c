//go:build linux

package main

import (
	"context"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/b0a38808/retry/bench/storm/internal/client"
	"github.com/b0a38808/retry/cmd"
	"github.com/b0a38808/retry/internal/redistest"
	"github.com/b0a38808/retry/runner/budget"
)

// TestMain makes the test binary retry and the storm's client too, by the
// name it is run under, so that the test builds nothing.
func TestMain(m *testing.M) {
	switch filepath.Base(os.Args[0]) {
	case "retry":
		os.Exit(cmd.Execute("v0.0.0-test", os.Args[1:]))
	case "stormclient":
		os.Exit(client.Run(os.Args[1:], os.Getenv("RETRY_ATTEMPT"), os.Stdout, os.Stderr))
	}
	os.Exit(m.Run())
}

// testTools links retry and stormclient to the test binary.
func testTools(t *testing.T) tools {
	self, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	bin := t.TempDir()
	tl := tools{retry: filepath.Join(bin, "retry"), client: filepath.Join(bin, "stormclient"), env: []string{"PATH=/usr/bin:/bin", "HOME=" + bin,
		// A binary built with the race detector sleeps a second as it
		// exits unless told not to.
		"GORACE=" + strings.TrimSpace(os.Getenv("GORACE")+" atexit_sleep_ms=0")}}
	for _, link := range []string{tl.retry, tl.client} {
		if err := os.Symlink(self, link); err != nil {
			t.Fatal(err)
		}
	}
	return tl
}

// stopMargin is how long, in milliseconds, retry may take to stop an
// attempt the deadline cut, on a loaded machine.
const stopMargin = 300

// A storm in small: 30 clients, each a loop of real retry processes,
// through one shared budget against a service that fails every request:
// the budget of one machine's state, and the budget of one redis-server
// for clients that each keep a state of their own, as separate machines
// do. The service sees no more retries than the budget's rule allows,
// every retry an operation made reaches it, the budget refuses some, and
// no operation outlives its deadline. Counts, not times, decide.
func TestSharedBudgetHoldsTheRule(t *testing.T) {
	for _, pol := range []policy{
		{name: "shared budget", flags: []string{"--budget", "storm"}, budget: true},
		{name: "fleet budget (Redis)", flags: []string{"--budget", "storm"}, state: ownState, store: true, budget: true},
	} {
		t.Run(pol.name, func(t *testing.T) { testBudgetHoldsTheRule(t, pol) })
	}
}

func testBudgetHoldsTheRule(t *testing.T, pol policy) {
	p := plan{
		clients: 30, interval: 3 * time.Second, outage: 6 * time.Second, // and no after: it never recovers
		seed:       1,
		retryFlags: []string{"-a", "5", "-d", "1s", "--delay", "200ms", "--max-delay", "1s"},
		deadline:   time.Second,
		rule:       budget.DefaultPolicy(),
	}
	r, err := runPolicy(context.Background(), p, pol, testTools(t), t.TempDir())
	if errors.Is(err, redistest.ErrNoServer) {
		t.Skip(err)
	}
	if err != nil {
		t.Fatal(err)
	}
	var firsts, retries int64
	for i := range r.firsts {
		firsts += r.firsts[i]
		retries += r.retries[i]
	}
	var reported, outOfBudget, deadline int64
	for _, o := range r.ops {
		if o.err != nil {
			t.Fatalf("operation at %v: %v", o.at, o.err)
		}
		// An attempt the deadline cuts takes a few milliseconds to
		// stop; a wait past the deadline would take hundreds more.
		if o.rep.ElapsedMS > o.rep.DeadlineMS+stopMargin || o.rep.DeadlineMS != 1000 {
			t.Errorf("operation at %v took %.1f ms of its deadline of %.0f ms", o.at, o.rep.ElapsedMS, o.rep.DeadlineMS)
		}
		reported += int64(max(o.rep.AttemptsTotal, len(o.rep.Attempts)) - 1)
		switch o.rep.Outcome {
		case "budget":
			outOfBudget++
		case "deadline":
			deadline++
		}
	}
	// Every operation's first attempt is counted in the budget; an
	// attempt cut by the deadline on a slow machine may not reach the
	// service.
	if firsts > int64(len(r.ops)) || retries > reported {
		t.Errorf("the service saw %d first attempts and %d retries; the %d operations reported %d retries", firsts, retries, len(r.ops), reported)
	}
	// One window's allowance, or one for each window the run spanned on
	// a machine so loaded that it took more than one.
	windows := int64(math.Ceil(r.elapsed.Seconds() / (budget.Window - time.Second).Seconds()))
	allowed := p.rule.Allowance(int64(len(r.ops))) + (windows-1)*int64(p.rule.Floor)
	if reported > allowed {
		t.Errorf("%d operations made %d retries in %v; the rule allows %d", len(r.ops), reported, r.elapsed, allowed)
	}
	if outOfBudget == 0 {
		t.Errorf("no operation ran out of budget: %d retries for %d first attempts did not test the rule", retries, firsts)
	}
	t.Logf("%d operations made %d retries (the rule allows %d), %d ran out of budget, %d of time; the service saw %d first attempts and %d retries; %v",
		len(r.ops), reported, allowed, outOfBudget, deadline, firsts, retries, r.elapsed.Round(time.Millisecond))
}
