package backoff

import (
	"math"
	"math/rand/v2"
	"testing"
	"time"
)

func TestDelayRejectsWhatRetryDelayRejects(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, tc := range []struct {
		name      string
		index     int
		base, cap time.Duration
	}{
		{"negative index", -1, time.Second, time.Second},
		{"zero base", 0, 0, time.Second},
		{"negative base", 0, -time.Millisecond, time.Second},
		{"negative cap", 0, time.Second, -1},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got, err := Delay(tc.index, tc.base, tc.cap, Full, r); err != ErrInvalid {
				t.Errorf("Delay(%d, %v, %v) = %v, %v; want ErrInvalid", tc.index, tc.base, tc.cap, got, err)
			}
		})
	}
}

func TestUpper(t *testing.T) {
	for _, tc := range []struct {
		index     int
		base, cap time.Duration
		want      time.Duration
	}{
		{0, time.Second, 30 * time.Second, time.Second},
		{1, time.Second, 30 * time.Second, 2 * time.Second},
		{4, time.Second, 30 * time.Second, 16 * time.Second},
		{5, time.Second, 30 * time.Second, 30 * time.Second},
		{0, time.Second, 0, 0},
		{30, time.Nanosecond, math.MaxInt64, 1 << 30},
		{31, time.Nanosecond, math.MaxInt64, 1 << 30}, // shift capped at 30
		{70, time.Nanosecond, math.MaxInt64, 1 << 30},
		{30, math.MaxInt64 / 2, math.MaxInt64, math.MaxInt64}, // saturates
		{1, math.MaxInt64/2 + 1, math.MaxInt64, math.MaxInt64},
		{1, math.MaxInt64 / 2, math.MaxInt64, math.MaxInt64 - 1},
		{70, math.MaxInt64, time.Hour, time.Hour},
	} {
		if got := Upper(tc.index, tc.base, tc.cap); got != tc.want {
			t.Errorf("Upper(%d, %d, %d) = %d; want %d", tc.index, tc.base, tc.cap, got, tc.want)
		}
	}
}

func TestDelayBounds(t *testing.T) {
	bases := []time.Duration{time.Nanosecond, time.Millisecond, time.Second, math.MaxInt64 / 3, math.MaxInt64}
	caps := []time.Duration{0, 1, time.Millisecond, 30 * time.Second, math.MaxInt64}
	r := rand.New(rand.NewPCG(7, 7))
	for _, base := range bases {
		for _, cap := range caps {
			for i := 0; i <= 70; i++ {
				u := Upper(i, base, cap)
				for range 20 {
					full, err := Delay(i, base, cap, Full, r)
					if err != nil {
						t.Fatal(err)
					}
					if u == 0 && full != 0 || u > 0 && (full < 0 || full >= u) {
						t.Fatalf("full Delay(%d, %d, %d) = %d; want in [0, %d)", i, base, cap, full, u)
					}
					equal, _ := Delay(i, base, cap, Equal, r)
					if u > 1 && (equal < u/2 || equal >= u) {
						t.Fatalf("equal Delay(%d, %d, %d) = %d; want in [%d, %d)", i, base, cap, equal, u/2, u)
					}
					none, _ := Delay(i, base, cap, None, r)
					if none != u {
						t.Fatalf("none Delay(%d, %d, %d) = %d; want %d", i, base, cap, none, u)
					}
				}
			}
		}
	}
}

func TestZeroCapMeansNoWait(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 1))
	for _, j := range []Jitter{Full, Equal, None} {
		for i := range 40 {
			if d, err := Delay(i, time.Second, 0, j, r); d != 0 || err != nil {
				t.Fatalf("%v Delay(%d, 1s, 0) = %v, %v; want 0, nil", j, i, d, err)
			}
		}
	}
}

func TestFullJitterSpreadsAcrossTheRange(t *testing.T) {
	// A uniform draw from [0, 1s) lands in each tenth of it; a constant or
	// a draw from a narrower range would not.
	r := rand.New(rand.NewPCG(3, 4))
	var seen [10]bool
	for range 1000 {
		d, _ := Delay(0, time.Second, time.Minute, Full, r)
		seen[d/(100*time.Millisecond)] = true
	}
	for i, ok := range seen {
		if !ok {
			t.Errorf("no delay in [%dms, %dms)", i*100, (i+1)*100)
		}
	}
}

func TestSubMillisecondBaseStillJitters(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	distinct := map[time.Duration]bool{}
	for range 100 {
		d, _ := Delay(0, time.Millisecond, time.Second, Full, r)
		distinct[d] = true
	}
	if len(distinct) < 50 {
		t.Errorf("1ms base gave %d distinct delays in 100 draws; want at least 50", len(distinct))
	}
}

func TestSeedReproducesSchedule(t *testing.T) {
	schedule := func(seed uint64) []time.Duration {
		r := rand.New(rand.NewPCG(seed, seed))
		p := Policy{Base: 10 * time.Millisecond, Cap: time.Second, Jitter: Full}
		var out []time.Duration
		for i := range 10 {
			d, err := p.Delay(i, r)
			if err != nil {
				t.Fatal(err)
			}
			out = append(out, d)
		}
		return out
	}
	a, b, c := schedule(42), schedule(42), schedule(43)
	same := func(x, y []time.Duration) bool {
		for i := range x {
			if x[i] != y[i] {
				return false
			}
		}
		return true
	}
	if !same(a, b) {
		t.Errorf("seed 42 gave %v then %v", a, b)
	}
	if same(a, c) {
		t.Errorf("seeds 42 and 43 gave the same schedule %v", a)
	}
}

func TestParseJitter(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want Jitter
		ok   bool
	}{{"full", Full, true}, {"equal", Equal, true}, {"none", None, true}, {"Full", 0, false}, {"", 0, false}} {
		got, err := ParseJitter(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("ParseJitter(%q) = %v, %v", tc.in, got, err)
		}
		if tc.ok && got.String() != tc.in {
			t.Errorf("%v.String() = %q; want %q", got, got.String(), tc.in)
		}
	}
}

// TestPolicyBounds: every draw of Delay lies within Bounds, and the draws
// reach both ends of it, so the range retry explain prints is the one a
// run draws from.
func TestPolicyBounds(t *testing.T) {
	r := rand.New(rand.NewPCG(7, 8))
	for _, j := range []Jitter{Full, Equal, None} {
		for _, base := range []time.Duration{time.Nanosecond, 3 * time.Nanosecond, time.Millisecond, time.Second} {
			p := Policy{Base: base, Cap: 4 * base, Jitter: j}
			for i := range 5 {
				lo, hi := p.Bounds(i)
				minSeen, maxSeen := time.Duration(math.MaxInt64), time.Duration(-1)
				for range 2000 {
					d, err := p.Delay(i, r)
					if err != nil {
						t.Fatal(err)
					}
					minSeen, maxSeen = min(minSeen, d), max(maxSeen, d)
					if d < lo || (d >= hi && lo != hi) || (lo == hi && d != lo) {
						t.Fatalf("%v base %v retry %d: delay %v outside Bounds [%v, %v)", j, base, i, d, lo, hi)
					}
				}
				// The draws come within 1% of the ends (or hit them for none).
				slack := (hi - lo) / 100
				if minSeen > lo+slack || (lo != hi && maxSeen < hi-1-slack) {
					t.Errorf("%v base %v retry %d: draws span [%v, %v], Bounds [%v, %v)", j, base, i, minSeen, maxSeen, lo, hi)
				}
			}
		}
	}
	if lo, hi := (Policy{Base: time.Second, Cap: 0, Jitter: None}).Bounds(3); lo != 0 || hi != 0 {
		t.Errorf("cap 0: Bounds = [%v, %v), want no wait", lo, hi)
	}
}

func TestReset(t *testing.T) {
	for _, tc := range []struct {
		after, ran time.Duration
		want       bool
	}{
		{0, time.Hour, false}, // no --reset-after: never
		{time.Second, 999 * time.Millisecond, false},
		{time.Second, time.Second, true}, // at least: the bound itself resets
		{time.Second, time.Hour, true},
	} {
		p := Policy{Base: time.Second, Cap: time.Minute, ResetAfter: tc.after}
		if got := p.Reset(tc.ran); got != tc.want {
			t.Errorf("Policy{ResetAfter: %v}.Reset(%v) = %v; want %v", tc.after, tc.ran, got, tc.want)
		}
	}
}
