package literal

import (
	"bytes"
	"testing"
)

// TestHitsChooseAgain checks that a window found common in the text, which
// the sample did not show, is recorded and its string moved to another,
// while every occurrence is still found.
func TestHitsChooseAgain(t *testing.T) {
	for _, simd := range paths()[1:] {
		t.Run(name(simd), func(t *testing.T) {
			ss := []String{{Text: "packet loss"}, {Text: "connection refused"}}
			sc := newScanner(ss, simd)
			quiet := bytes.Repeat([]byte("the lazy dog runs over the hill\n"), 512)
			for range 6 {
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
				t.Errorf("packet loss still on the window pack, which matched once in %d bytes", len(busy)/600)
			}
			if sc.w.seen(uint32('p')|'a'<<8|'c'<<16|'k'<<24) == 0 {
				t.Error("the window pack is not recorded as seen")
			}
		})
	}
}
