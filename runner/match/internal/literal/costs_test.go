package literal

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"
	"time"
)

// BenchmarkCosts measures what the choice's costs are made of (choose.go,
// buckets.go, README.md): an IndexByte pass and each lookup, in ns a byte;
// an anchor occurrence, a window candidate the filter turns down and a
// window match whose strings do not follow, in ns each. Every figure is
// the least of the loop's times, so that a shared machine's load weighs
// little, and each candidate's is what a run with one every 64 bytes
// takes beyond the same run without.
func BenchmarkCosts(b *testing.B) {
	const n = 128 << 10
	quiet := costText(n, "")
	b.Run("indexbyte", func(b *testing.B) {
		perByte(b, n, func() { bytes.IndexByte(quiet, '!') })
	})
	for _, c := range []struct {
		name string
		scan func(*tables, []byte, int) int
		ok   bool
	}{
		{"avx2-narrow", scanAVX2Narrow, haveSIMD},
		{"avx2-wide", scanAVX2, haveSIMD},
		{"avx512-narrow", scan512Narrow, haveSIMD && have512},
		{"avx512-wide", scan512, haveSIMD && have512},
	} {
		b.Run("lookup/"+c.name, func(b *testing.B) {
			if !c.ok {
				b.Skip("not on this CPU")
			}
			var t tables
			perByte(b, n, func() { c.scan(&t, quiet, 0) })
		})
	}
	// "kqxyp loss" is anchored on one of its first four bytes, or found
	// through the window "kqxy": none is in quiet.
	one := []String{{Text: "kqxyp loss"}}
	b.Run("occurrence", func(b *testing.B) {
		perCandidate(b, fixed(one, pureGo), quiet, costText(n, "kqxyz"))
	})
	for _, p := range paths()[1:] {
		b.Run("match/"+name(p), func(b *testing.B) {
			perCandidate(b, fixed(one, p), quiet, costText(n, "kqxyz"))
		})
		b.Run("candidate/"+name(p), func(b *testing.B) {
			// Twelve windows share 8 buckets: some bucket has two,
			// and text that takes its bytes from each in turn is
			// a candidate of that bucket and none of its windows.
			var ss []String
			for _, w := range []string{"kqxa", "pelu", "yioz", "qaxe", "uoky", "zpqi", "xlek", "aqyo", "ikzu", "eyla", "oxip", "lzuq"} {
				ss = append(ss, String{Text: w + "!"})
			}
			sc := fixed(ss, p)
			perCandidate(b, sc, quiet, costText(n, crossOf(b, &sc.w)))
		})
	}
}

// costText returns n bytes of letters that no string of BenchmarkCosts
// holds, in lines, with plant every 64 bytes.
func costText(n int, plant string) []byte {
	r := rand.New(rand.NewPCG(7, 8))
	b := make([]byte, n)
	for i := range b {
		b[i] = "bcdfghjmnrstvw "[r.IntN(15)]
		if i%100 == 99 {
			b[i] = '\n'
		}
	}
	for i := 32; plant != "" && i+len(plant) < n; i += 64 {
		copy(b[i:], plant)
	}
	return b
}

// fixed returns a Scanner of ss on search p, chosen on text where none of
// them occurs.
func fixed(ss []String, p path) *Scanner {
	sc := newScanner(ss, p)
	sc.startSample()
	sc.tn.smp.add(costText(sampleSize, ""), sc.simd)
	sc.choose()
	return sc
}

// crossOf returns four bytes that are a candidate of a bucket of w's and
// none of its windows.
func crossOf(b *testing.B, w *windows) string {
	for bk := range numBuckets {
		ids := w.byBucket[w.bucket[bk]:w.bucket[bk+1]]
		if len(ids) < 2 {
			continue
		}
		x, y := w.wins[ids[0]].key, w.wins[ids[1]].key
		return string([]byte{byte(x), byte(y >> 8), byte(x >> 16), byte(y >> 24)})
	}
	b.Fatal("no bucket holds two windows")
	return ""
}

// perByte reports the least time f takes, per byte of n.
func perByte(b *testing.B, n int, f func()) {
	least := time.Duration(1 << 62)
	for b.Loop() {
		t := time.Now()
		f()
		least = min(least, time.Since(t))
	}
	b.ReportMetric(float64(least.Nanoseconds())/float64(n), "ns/B")
}

// perCandidate reports what a candidate turned down in busy costs sc, less
// the same search of quiet.
func perCandidate(b *testing.B, sc *Scanner, quiet, busy []byte) {
	run := func(text []byte) (time.Duration, int) {
		t := time.Now()
		sc.Reset(text)
		for _, _, ok := sc.Next(); ok; _, _, ok = sc.Next() {
		}
		d, n := time.Since(t), sc.cands
		sc.tn.excess = 0 // the choice stays
		return d, n
	}
	leastQuiet, leastBusy, cands := time.Duration(1<<62), time.Duration(1<<62), 0
	for b.Loop() {
		d, _ := run(quiet)
		leastQuiet = min(leastQuiet, d)
		d, cands = run(busy)
		leastBusy = min(leastBusy, d)
	}
	if cands == 0 {
		b.Fatal("no candidate turned down")
	}
	b.ReportMetric(float64((leastBusy-leastQuiet).Nanoseconds())/float64(cands), "ns/cand")
}

// BenchmarkChoose measures a choice from a sample of log lines, for sets of
// 10 to 400 strings made of words of command output (all the presets
// together hold about 400), in the least time of the loop.
func BenchmarkChoose(b *testing.B) {
	words := strings.Fields("connection refused timed out reset by peer temporary failure service unavailable too many requests " +
		"could not resolve host name lookup failed permission denied network unreachable broken pipe lock held by " +
		"another process rate limit exceeded try again later gateway timeout internal server error no space left")
	var line bytes.Buffer
	for i := 0; line.Len() < sampleSize; i++ {
		fmt.Fprintf(&line, "2026-11-30T07:00:%02d.%03dZ INFO request id=%d path=/api/v1/items/%d status=200 took=%dms\n", i%60, i%1000, i, i*7, i%97)
	}
	r := rand.New(rand.NewPCG(9, 10))
	for _, n := range []int{10, 100, 400} {
		for _, p := range paths() {
			b.Run(fmt.Sprintf("%d/%s", n, name(p)), func(b *testing.B) {
				ss := make([]String, n)
				for i := range ss {
					k := 2 + r.IntN(4)
					var s []string
					for range k {
						s = append(s, words[r.IntN(len(words))])
					}
					ss[i] = String{Text: strings.Join(s, " "), Fold: r.IntN(3) == 0}
				}
				sc := newScanner(ss, p)
				sc.forceSIMD = false
				sc.startSample()
				sc.tn.smp.add(line.Bytes(), sc.simd)
				least := time.Duration(1 << 62)
				for b.Loop() {
					t := time.Now()
					sc.choose()
					least = min(least, time.Since(t))
				}
				b.ReportMetric(float64(least.Nanoseconds())/1e3, "µs/choice")
			})
		}
	}
}
