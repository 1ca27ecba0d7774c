package literal

import (
	"bytes"
	"maps"
	"slices"
	"testing"
)

// TestFirstAnchors: the first runs search each string by the byte its At
// names, from the cover FirstAnchors chose over them all, which costs less
// than each string on its own rarest byte, and the anchors are chosen from
// the text once enough of it has been seen.
func TestFirstAnchors(t *testing.T) {
	ss := []String{
		{Text: "connection refused"}, {Text: "Connection timed out"}, {Text: "connection reset by peer"},
		{Text: "timed out", Fold: true}, {Text: "503 Service Unavailable"}, {Text: "x"}, {Text: ""},
	}
	at := FirstAnchors(ss)
	want, alone := map[byte]bool{}, map[byte]bool{}
	for i, s := range ss {
		if s.Text == "" {
			if at[i] != 0 {
				t.Errorf("the empty string has At %d, want 0", at[i])
			}
			continue
		}
		if at[i] < 1 || at[i] > len(s.Text) {
			t.Fatalf("%q has At %d, outside it", s.Text, at[i])
		}
		ss[i].At = at[i]
		l := NewSet(ss[i : i+1]).lits[0]
		for _, x := range []struct {
			set map[byte]bool
			c   byte
		}{{want, s.Text[at[i]-1]}, {alone, l.text[rarest(prior(), &l)]}} {
			x.set[x.c] = true
			if c := lower[x.c]; s.Fold && isLower(c) {
				x.set[c], x.set[c-'a'+'A'] = true, true
			}
		}
	}
	cost := func(anchors map[byte]bool) float64 {
		c := 0.0
		for b := range anchors {
			c += prior()[b] + anchorCost
		}
		return c
	}
	if cost(want) >= cost(alone) {
		t.Errorf("the first anchors %q cost %.4f, each string on its rarest byte (%q) %.4f", slices.Sorted(maps.Keys(want)), cost(want), slices.Sorted(maps.Keys(alone)), cost(alone))
	}
	text := bytes.Repeat([]byte("GET /x 200 ok\nread: Connection timed out\n"), 4096)
	for _, p := range paths() {
		t.Run(name(p), func(t *testing.T) {
			sc := newScanner(ss, p)
			check(t, ss, sc, text[:100])
			if p != pureGo {
				return // forced, the SIMD search chooses on the first run
			}
			got := map[byte]bool{}
			for _, c := range sc.a.active {
				got[c] = true
			}
			if !maps.Equal(got, want) || sc.Chosen() {
				t.Errorf("first run anchored on %q (chosen %t), want %q", sc.a.active, sc.Chosen(), slices.Collect(maps.Keys(want)))
			}
			check(t, ss, sc, text)
			check(t, ss, sc, text)
			if !sc.Chosen() {
				t.Errorf("after %d bytes the anchors are still the first ones", 100+2*len(text))
			}
		})
	}
}

// TestFirstAnchorsShared: the Scanners of one Set share the first runs'
// anchors, placed once, and a Scanner that chooses its own from the text,
// or after Disable, leaves the others' as they were.
func TestFirstAnchorsShared(t *testing.T) {
	ss := []String{{Text: "connection refused"}, {Text: "timed out", Fold: true}, {Text: "EOF"}, {Text: "x"}}
	set := NewSet(ss)
	text := []byte("dial: connection refused\nread: Timed Out\nTIMED OUT\nunexpected EOF\nxyz\n")
	a, b, c := set.NewScanner(), set.NewScanner(), set.NewScanner()
	check(t, ss, a, text)
	check(t, ss, b, text)
	if !a.a.shared || !b.a.shared || &a.a.ents[0] != &b.a.ents[0] {
		t.Fatalf("the first anchors are not shared: %t %t", a.a.shared, b.a.shared)
	}
	if first, again := string(a.a.active), string(b.a.active); first != again || len(a.a.active) != len(set.firstAnchors.active) {
		t.Fatalf("the first anchors are %q and %q, want the Set's %q", first, again, set.firstAnchors.active)
	}
	first := string(a.a.active)
	// Text full of the first anchors' bytes, so that a chooses others.
	long := bytes.Repeat([]byte(first+" "+first+"\n"), 64<<10/(2*len(first)+2)+sampleSize)
	check(t, ss, a, long)
	check(t, ss, a, long)
	if !a.Chosen() || a.a.shared || string(a.a.active) == first {
		t.Fatalf("a has not chosen its own anchors (chosen %t, shared %t, %q)", a.Chosen(), a.a.shared, a.a.active)
	}
	b.Disable(0) // b chooses for the strings left
	scanAll(t, b, text)
	check(t, ss, c, text) // c still starts on the anchors a and b left
	check(t, ss, c, append(slices.Clone(text), long...))
}

// TestChoosesAgain: once chosen, the search chooses again only when the
// candidates it turns down pile up: never on more text of the kind it
// chose on, and within a few MiB on text full of the anchors it chose,
// after which it turns down fewer.
func TestChoosesAgain(t *testing.T) {
	ss := []String{{Text: "connection refused"}, {Text: "timed out", Fold: true}, {Text: "zq"}}
	quiet := bytes.Repeat([]byte("GET /api/v1/items 200 ok 12ms\n"), 4<<10)
	sc := newScanner(ss, pureGo)
	for sc.tn.choices == 0 {
		check(t, ss, sc, quiet)
	}
	for range 200 { // 25 MiB
		scanAll(t, sc, quiet)
	}
	if sc.tn.choices != 1 {
		t.Fatalf("%d choices on text of one kind, want 1", sc.tn.choices)
	}
	chosen := string(sc.a.active)
	busy := bytes.Repeat([]byte(chosen+" "+chosen+"\n"), (128<<10)/(2*len(chosen)+2))
	for run := 0; sc.tn.choices == 1; run++ {
		if run == 40 {
			t.Fatalf("no choice after %d KiB of text full of the anchors %q", run*len(busy)>>10, chosen)
		}
		check(t, ss, sc, busy)
	}
	if got := string(sc.a.active); got == chosen {
		t.Fatalf("chose the anchors %q again", got)
	}
	scanAll(t, sc, busy)
	if sc.cands*candGap >= len(busy) {
		t.Errorf("after the choice %d candidates turned down in %d bytes, still one per %d bytes or more", sc.cands, len(busy), candGap)
	}
	check(t, ss, sc, quiet)
}

// TestWindowsChooseAgain: a window that the sample showed rare and the text
// holds often, as "pack" in the "packagefile" lines of a build's output,
// makes the SIMD search choose again, and its string moves to another.
func TestWindowsChooseAgain(t *testing.T) {
	for _, simd := range paths()[1:] {
		t.Run(name(simd), func(t *testing.T) {
			ss := []String{{Text: "packet loss"}, {Text: "connection refused"}}
			sc := newScanner(ss, simd)
			quiet := bytes.Repeat([]byte("the lazy dog runs over the hill\n"), 512)
			for sc.tn.choices == 0 {
				check(t, ss, sc, quiet)
			}
			window := func() string {
				w := &sc.w
				if !w.on || w.pick[0] < 0 {
					t.Fatalf("packet loss is not searched through a window")
				}
				k := w.wins[w.pick[0]].key
				return string([]byte{byte(k), byte(k >> 8), byte(k >> 16), byte(k >> 24)})
			}
			if got := window(); got != "pack" {
				t.Fatalf("packet loss on the window %q, want pack for this test", got)
			}
			busy := bytes.Repeat([]byte("packagefile fmt=/x/fmt.a\npackagefile packet loss=/x/y.a\n"), 300)
			for range 40 {
				check(t, ss, sc, busy)
			}
			if got := window(); got == "pack" {
				t.Fatalf("packet loss still on the window pack, which matched once in %d bytes", len(busy)/600)
			}
			// Chosen again on quiet text, where pack is rare, it is
			// remembered as common: the quiet text comes back in turn
			// with the busy.
			sc.startSample()
			for sc.tn.sampling {
				check(t, ss, sc, quiet)
			}
			if got := window(); got == "pack" {
				t.Errorf("chosen again on quiet text, packet loss is back on pack, which the busy text held once in %d bytes", len(busy)/600)
			}
		})
	}
}

// TestCloneKeepsChoice: a clone of a Scanner that has chosen searches as it
// does, and expects the candidates it expected: on the same text it turns
// down as many and does not choose again.
func TestCloneKeepsChoice(t *testing.T) {
	ss := []String{{Text: "connection refused"}, {Text: "timed out", Fold: true}, {Text: "EOF"}}
	text := bytes.Repeat([]byte("GET /api/v1/items 200 ok 12ms, sent to fd 3 of 4 EOF-free\n"), 2<<10)
	sc := newScanner(ss, pureGo)
	for sc.tn.choices == 0 {
		check(t, ss, sc, text)
	}
	c := sc.Clone()
	if !c.Chosen() || string(c.a.active) != string(sc.a.active) || c.tn.expect != sc.tn.expect {
		t.Fatalf("the clone has anchors %q (chosen %t, expects %g), want %q (expects %g)", c.a.active, c.Chosen(), c.tn.expect, sc.a.active, sc.tn.expect)
	}
	for range 100 {
		check(t, ss, c, text)
	}
	if c.tn.choices != 0 {
		t.Errorf("the clone chose %d times on the text its Scanner chose on", c.tn.choices)
	}
}

// TestCloneChoosesAgain: a clone of a Scanner that chose windows chooses
// again, on text full of what was chosen, as its Scanner would, and finds
// what the naive search finds meanwhile.
func TestCloneChoosesAgain(t *testing.T) {
	if !haveSIMD {
		t.Skip("no AVX2 here: the SIMD search never runs")
	}
	ss := []String{{Text: "connection refused"}, {Text: "connection reset"}, {Text: "timed out", Fold: true}, {Text: "HTTP/1.1 503"}}
	quiet := bytes.Repeat([]byte("GET /api/v1/items 200 ok 12ms\n"), 4<<10)
	busy := bytes.Repeat([]byte("connecting to db-1:5432 (attempt 2) connection re\n"), 4<<10)
	sc := NewSet(ss).NewScanner()
	for sc.tn.choices == 0 {
		check(t, ss, sc, quiet)
	}
	if !sc.w.on {
		t.Fatal("the Scanner chose no windows on the quiet text")
	}
	c := sc.Clone()
	for range 20 {
		check(t, ss, c, busy)
	}
	if c.tn.choices == 0 {
		t.Errorf("the clone did not choose again on %d KiB of text full of its windows", 20*len(busy)>>10)
	}
}
