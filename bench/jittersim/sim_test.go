package main

import (
	"math/rand/v2"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// small returns an experiment that runs in well under a second.
func small(clients ...int) config {
	cfg := defaultConfig()
	cfg.races = 5
	cfg.clients = clients
	return cfg
}

func TestFullJitterNeedsLessThanHalfTheCallsOfExponential(t *testing.T) {
	res := run(small(100))
	full := res.cells[0][res.find("full jitter")]
	expo := res.cells[0][res.find("exponential, no jitter")]
	if 2*full.calls >= expo.calls {
		t.Errorf("100 clients: full jitter made %d calls, exponential without jitter %d; want less than half", full.calls, expo.calls)
	}
	if full.meanTime() >= expo.meanTime() {
		t.Errorf("100 clients: full jitter took %v, exponential without jitter %v; want less", full.meanTime(), expo.meanTime())
	}
	none := res.cells[0][res.find("no backoff")]
	if expo.calls >= none.calls {
		t.Errorf("100 clients: exponential without jitter made %d calls, no backoff %d; want fewer", expo.calls, none.calls)
	}
}

func TestEveryClientSucceedsExactlyOnce(t *testing.T) {
	m := defaultConfig().model
	for _, s := range strategies() {
		for _, n := range []int{1, 2, 17} {
			o := race(m, s, n, rand.New(rand.NewPCG(1, uint64(n))))
			// n successful writes, each needing a read and a write, so at
			// least 4 network delays for the last one.
			if o.calls < n || (n == 1 && o.calls != 1) {
				t.Errorf("%s, %d clients: %d calls", s.name, n, o.calls)
			}
			if o.time < 4*(m.netMean-6*m.netSD) || o.time <= 0 {
				t.Errorf("%s, %d clients: done after %v", s.name, n, o.time)
			}
		}
	}
}

func TestSeedDecidesTheResults(t *testing.T) {
	a, b := small(20), small(20)
	c := small(20)
	c.seed = 2
	ra, rb, rc := markdown(run(a)), markdown(run(b)), markdown(run(c))
	if ra != rb {
		t.Errorf("seed 1 gave two different results:\n%s\n%s", ra, rb)
	}
	if strings.Replace(ra, "Seed 1", "Seed 2", 1) == rc {
		t.Errorf("seeds 1 and 2 gave the same results:\n%s", ra)
	}
}

func TestNetDelayIsAboutNormal(t *testing.T) {
	m := defaultConfig().model
	r := rand.New(rand.NewPCG(3, 3))
	const n = 20000
	var sum, within time.Duration
	for range n {
		d := m.netDelay(r)
		if d < 0 {
			t.Fatalf("negative delay %v", d)
		}
		sum += d
		if d > m.netMean-m.netSD && d < m.netMean+m.netSD {
			within++
		}
	}
	if mean := sum / n; mean < m.netMean-m.netSD/10 || mean > m.netMean+m.netSD/10 {
		t.Errorf("mean delay %v; want about %v", mean, m.netMean)
	}
	// A normal distribution has 68% within one standard deviation.
	if pct := 100 * within / n; pct < 64 || pct > 72 {
		t.Errorf("%d%% of delays within one standard deviation; want about 68%%", pct)
	}
}

func TestDecorrelatedStaysBetweenBaseAndCap(t *testing.T) {
	m := defaultConfig().model
	r := rand.New(rand.NewPCG(4, 4))
	wait := decorrelated(m)
	prev, capped := m.base, false
	for i := range 200 {
		d := wait(i, r)
		if d < m.base || d > m.cap || d >= 3*prev {
			t.Fatalf("retry %d: wait %v after %v; want in [%v, min(%v, 3*%v))", i, d, prev, m.base, m.cap, prev)
		}
		capped = capped || d == m.cap
		prev = d
	}
	if !capped {
		t.Errorf("decorrelated waits never reached the cap %v", m.cap)
	}
}

func TestReplaceGenerated(t *testing.T) {
	page := "intro\n" + beginMarker + "old\n" + endMarker + "outro\n"
	got, err := replaceGenerated(page, "new\n")
	if want := "intro\n" + beginMarker + "new\n" + endMarker + "outro\n"; err != nil || got != want {
		t.Errorf("replaceGenerated = %q, %v; want %q", got, err, want)
	}
	if _, err := replaceGenerated("no markers\n", "new\n"); err == nil {
		t.Error("replaceGenerated accepted a page without markers")
	}
}

// TestCommittedDocsAreCurrent fails when docs/jitter.md or docs/jitter.svg
// differ from what the program produces, for example after a change to
// runner/backoff or to the model.
func TestCommittedDocsAreCurrent(t *testing.T) {
	if testing.Short() {
		t.Skip("runs the whole experiment")
	}
	dir := filepath.Join("..", "..", "docs")
	res := run(defaultConfig())
	const hint = "; regenerate with: go run ./bench/jittersim -docs docs"

	page, err := os.ReadFile(filepath.Join(dir, "jitter.md"))
	if err != nil {
		t.Fatal(err)
	}
	want, err := replaceGenerated(string(page), markdown(res))
	if err != nil {
		t.Fatal(err)
	}
	if string(page) != want {
		t.Errorf("docs/jitter.md is out of date%s", hint)
	}
	chart, err := os.ReadFile(filepath.Join(dir, "jitter.svg"))
	if err != nil {
		t.Fatal(err)
	}
	if string(chart) != svg(res) {
		t.Errorf("docs/jitter.svg is out of date%s", hint)
	}
}
