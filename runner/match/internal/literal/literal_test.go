package literal

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
)

// occurrence is one string found at one place.
type occurrence struct{ start, id int }

// naive finds every occurrence the obvious way.
func naive(ss []String, b []byte) []occurrence {
	var out []occurrence
	for id, s := range ss {
		if s.Text == "" {
			continue
		}
		for i := 0; i+len(s.Text) <= len(b); i++ {
			w := string(b[i : i+len(s.Text)])
			if w == s.Text || s.Fold && asciiLower(w) == asciiLower(s.Text) {
				out = append(out, occurrence{i, id})
			}
		}
	}
	return out
}

// asciiLower lowers ASCII letters only, as Fold does.
func asciiLower(s string) string {
	b := []byte(s)
	for i, c := range b {
		if 'A' <= c && c <= 'Z' {
			b[i] = c + 'a' - 'A'
		}
	}
	return string(b)
}

// scanAll reports every occurrence a scanner finds in each run, and checks
// that the lines come in order.
func scanAll(t testing.TB, sc *Scanner, b []byte) []occurrence {
	t.Helper()
	var out []occurrence
	sc.Reset(b)
	lastLine := 0
	for {
		start, id, ok := sc.Next()
		if !ok {
			break
		}
		line := bytes.Count(b[:start], []byte("\n"))
		if line < lastLine {
			t.Fatalf("occurrence at %d (line %d) came after one on line %d", start, line, lastLine)
		}
		lastLine = line
		out = append(out, occurrence{start, id})
	}
	return out
}

func sorted(o []occurrence) []occurrence {
	o = slices.Clone(o)
	slices.SortFunc(o, func(a, b occurrence) int {
		if a.start != b.start {
			return a.start - b.start
		}
		return a.id - b.id
	})
	return o
}

func check(t testing.TB, ss []String, sc *Scanner, b []byte) {
	t.Helper()
	got, want := sorted(scanAll(t, sc, b)), sorted(naive(ss, b))
	long := slices.ContainsFunc(ss, func(s String) bool {
		ascii := 0 // ASCII bytes in a row
		for i := range len(s.Text) {
			if ascii++; s.Text[i] >= 0x80 {
				ascii = 0
			}
			if ascii >= winSize && i-winSize+1 < maxWinOff {
				return true // a window the SIMD search can take
			}
		}
		return false
	})
	if sc.forceSIMD && long && sc.live == len(ss) && !sc.w.on {
		t.Fatalf("strings %+v: the SIMD search is off", ss)
	}
	if !slices.Equal(got, want) {
		t.Fatalf("strings %+v in %q:\nfound     %v\nreference %v", ss, b, got, want)
	}
}

// path is one of the searches a test must cover.
type path int

const (
	pureGo path = iota // the anchors alone
	avx2               // the SIMD search, 32 positions at a time
	avx512             // the SIMD search, 64 positions at a time
)

// paths returns the searches a test must cover: the pure-Go one, and the
// SIMD ones where they run.
func paths() []path {
	p := []path{pureGo}
	if haveSIMD {
		p = append(p, avx2)
	}
	if haveSIMD && have512 {
		p = append(p, avx512)
	}
	return p
}

// newScanner returns a Scanner of ss, on the SIMD search of p wherever it
// can be or not at all.
func newScanner(ss []String, p path) *Scanner {
	sc := NewSet(ss).NewScanner()
	sc.simd, sc.forceSIMD, sc.simd512 = p != pureGo, p != pureGo, p == avx512
	return sc
}

func name(p path) string {
	return [...]string{"purego", "avx2", "avx512"}[p]
}

func TestScanner(t *testing.T) {
	tests := []struct {
		name string
		ss   []String
		text string
	}{
		{"one exact", []String{{Text: "timed out"}}, "a\nconnection timed out\ntimed outtimed out\n"},
		{"folded", []String{{Text: "Retry-After", Fold: true}}, "RETRY-AFTER: 1\nretry-after: 2\nReTrY-aFtEr\n"},
		{"fold is ASCII only", []String{{Text: "é", Fold: true}}, "É é"},
		{"exact is exact", []String{{Text: "Denied"}}, "denied DENIED Denied"},
		{"overlapping", []String{{Text: "aa"}, {Text: "aaa"}}, "aaaa"},
		{"same anchor", []String{{Text: "xab"}, {Text: "abx"}, {Text: "bxa", Fold: true}}, "xabxabXA"},
		{"prefix of another", []String{{Text: "time"}, {Text: "timeout"}, {Text: "time out"}}, "timeout time out"},
		{"at the ends", []String{{Text: "ab"}}, "ab"},
		{"longer than the text", []String{{Text: "abcdef"}}, "abc"},
		{"empty string never found", []String{{Text: ""}, {Text: "x"}}, "x"},
		{"binary", []String{{Text: "\x00\xff"}, {Text: "\n"}}, "\x00\xff\n\x00"},
		{"zero bytes", []String{{Text: "\x00\x00\x00\x00"}, {Text: "ab\x00\x00c"}}, "ab\x00\x00c\x00\x00\x00\x00\x00"},
		{"not ASCII", []String{{Text: "\x00\xff\x80"}, {Text: "é\xffa"}, {Text: "aéb", Fold: true}, {Text: "abcd\x80"}}, "\x00\xff\x80é\xffaAéBabcd\x80"},
	}
	for _, simd := range paths() {
		for _, tt := range tests {
			t.Run(name(simd)+"/"+tt.name, func(t *testing.T) {
				sc := newScanner(tt.ss, simd)
				check(t, tt.ss, sc, []byte(tt.text))
				check(t, tt.ss, sc, []byte(tt.text+tt.text)) // a second run, anchors kept
				// the text at every place in a run longer than a block
				for pad := range 70 {
					text := strings.Repeat("-", pad) + tt.text + strings.Repeat("_", 70-pad)
					check(t, tt.ss, sc, []byte(text))
				}
				// and at the end of runs of every length up to a few
				// blocks, where the lookup's last block would read past
				for pad := range 140 {
					check(t, tt.ss, sc, []byte(strings.Repeat("-", pad)+tt.text))
				}
			})
		}
	}
}

func TestDisable(t *testing.T) {
	for _, simd := range paths() {
		t.Run(name(simd), func(t *testing.T) { testDisable(t, simd) })
	}
}

func testDisable(t *testing.T, simd path) {
	ss := []String{{Text: "a"}, {Text: "bcd"}}
	sc := newScanner(ss, simd)
	sc.Disable(0)
	if !sc.Live() {
		t.Fatal("Live = false with one string left")
	}
	if got := scanAll(t, sc, []byte("abcd")); !slices.Equal(got, []occurrence{{1, 1}}) {
		t.Errorf("after Disable(0): %v, want only bcd at 1", got)
	}
	sc.Disable(1)
	if sc.Live() {
		t.Error("Live = true with every string disabled")
	}
	if got := scanAll(t, sc, []byte("abcd")); got != nil {
		t.Errorf("all disabled: found %v", got)
	}
	if got := scanAll(t, sc.Clone(), []byte("abcd")); !slices.Equal(got, []occurrence{{0, 0}, {1, 1}}) {
		t.Errorf("a clone of a scanner with every string disabled: %v, want a at 0 and bcd at 1", got)
	}
}

// TestKindsInTurn feeds runs whose byte frequencies change, so that the
// search is chosen again on different text, and checks every run.
func TestKindsInTurn(t *testing.T) {
	for _, simd := range paths() {
		t.Run(name(simd), func(t *testing.T) { testKindsInTurn(t, simd) })
	}
}

func testKindsInTurn(t *testing.T, simd path) {
	ss := []String{{Text: "connection refused"}, {Text: "timed out", Fold: true}, {Text: "zq"}, {Text: "QZ", Fold: true}}
	sc := newScanner(ss, simd)
	r := rand.New(rand.NewPCG(1, 2))
	for run := range 40 {
		alphabet := []string{"zzzzq ", "timed ", "TIMED OUT\n", "connection refused\n", "qqqq", "abc\n"}[run%6]
		var b bytes.Buffer
		for b.Len() < 100<<10 {
			b.WriteString(alphabet)
			if r.IntN(50) == 0 {
				b.WriteString(ss[r.IntN(len(ss))].Text)
			}
		}
		check(t, ss, sc, b.Bytes())
	}
}

func FuzzScanner(f *testing.F) {
	f.Add([]byte("timed out\nTIMED OUT\nconnection refused"), "timed out", "refused", "Out")
	f.Add([]byte("aaaa\nab\n"), "aa", "a", "b")
	f.Add([]byte("\x00\xff\xfeX"), "\xff", "x", "")
	f.Add([]byte("xx Connection timed out during banner exchange\nHTTP/1.1 503 Service"), "timed out", "http/1.1 50", "503 S")
	f.Fuzz(func(t *testing.T, text []byte, a, b, c string) {
		for _, simd := range paths() {
			fuzzScanner(t, simd, text, a, b, c)
		}
	})
}

func fuzzScanner(t *testing.T, simd path, text []byte, a, b, c string) {
	{
		ss := []String{{Text: a}, {Text: b, Fold: true}, {Text: c, Fold: true}, {Text: c}}
		sc := newScanner(ss, simd)
		check(t, ss, sc, text)
		// a second run after the first, and one cut in two
		check(t, ss, sc, text)
		check(t, ss, sc, text[:len(text)/2])
		// a clone, with the anchors sc chose, and with every string again
		check(t, ss, sc.Clone(), text)
		sc.Disable(0)
		check(t, ss, sc.Clone(), text)
		// the text repeated, so that its bytes' counts choose the anchors
		if len(text) > 0 {
			long := bytes.Repeat(text, sampleSize/len(text)+1)
			check(t, ss, newScanner(ss, simd), long)
			// a clone choosing again, as the signal makes it
			cl := sc.Clone()
			cl.startSample()
			check(t, ss, cl, long)
		}
		// the first runs searching by the bytes FirstAnchors chose
		for i, at := range FirstAnchors(ss) {
			ss[i].At = at
		}
		check(t, ss, newScanner(ss, simd), text)
	}
}

func BenchmarkScanner(b *testing.B) {
	var text bytes.Buffer
	for i := 0; text.Len() < 1<<20; i++ {
		fmt.Fprintf(&text, "2026-11-30T07:00:%02d.%03dZ INFO request id=%d path=/api/v1/items/%d status=200 bytes=%d took=%dms\n",
			i%60, i%1000, i, i*7, i*13%9000, i%97)
	}
	ss := []String{{Text: "connection refused"}, {Text: "timed out", Fold: true}, {Text: "retry-after", Fold: true}}
	for _, simd := range paths() {
		b.Run(name(simd), func(b *testing.B) { benchScanner(b, newScanner(ss, simd), text.Bytes()) })
	}
}

func benchScanner(b *testing.B, sc *Scanner, text []byte) {
	b.SetBytes(int64(len(text)))
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i < len(text); i += 128 << 10 {
			sc.Reset(text[i:min(i+128<<10, len(text))])
			for {
				if _, _, ok := sc.Next(); !ok {
					break
				}
			}
		}
	}
}
