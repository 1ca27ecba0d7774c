package literal

import (
	"bytes"
	"fmt"
	"math/rand/v2"
	"slices"
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
	if !slices.Equal(got, want) {
		t.Fatalf("strings %+v in %q:\nfound     %v\nreference %v", ss, b, got, want)
	}
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
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := NewSet(tt.ss).NewScanner()
			check(t, tt.ss, sc, []byte(tt.text))
			check(t, tt.ss, sc, []byte(tt.text+tt.text)) // a second run, anchors kept
		})
	}
}

func TestDisable(t *testing.T) {
	ss := []String{{Text: "a"}, {Text: "b"}}
	sc := NewSet(ss).NewScanner()
	sc.Disable(0)
	if !sc.Live() {
		t.Fatal("Live = false with one string left")
	}
	if got := scanAll(t, sc, []byte("ab")); !slices.Equal(got, []occurrence{{1, 1}}) {
		t.Errorf("after Disable(0): %v, want only b at 1", got)
	}
	sc.Disable(1)
	if sc.Live() {
		t.Error("Live = true with every string disabled")
	}
	if got := scanAll(t, sc, []byte("ab")); got != nil {
		t.Errorf("all disabled: found %v", got)
	}
	if got := scanAll(t, sc.Clone(), []byte("ab")); !slices.Equal(got, []occurrence{{0, 0}, {1, 1}}) {
		t.Errorf("a clone of a scanner with every string disabled: %v, want a at 0 and b at 1", got)
	}
}

// TestRetune feeds runs whose byte frequencies change, so that the anchors
// are chosen again on different text, and checks every run.
func TestRetune(t *testing.T) {
	ss := []String{{Text: "connection refused"}, {Text: "timed out", Fold: true}, {Text: "zq"}, {Text: "QZ", Fold: true}}
	sc := NewSet(ss).NewScanner()
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
	f.Fuzz(func(t *testing.T, text []byte, a, b, c string) {
		ss := []String{{Text: a}, {Text: b, Fold: true}, {Text: c, Fold: true}, {Text: c}}
		sc := NewSet(ss).NewScanner()
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
			long := bytes.Repeat(text, sample/len(text)+1)
			check(t, ss, NewSet(ss).NewScanner(), long)
		}
	})
}

func BenchmarkScanner(b *testing.B) {
	var text bytes.Buffer
	for i := 0; text.Len() < 1<<20; i++ {
		fmt.Fprintf(&text, "2026-11-30T07:00:%02d.%03dZ INFO request id=%d path=/api/v1/items/%d status=200 bytes=%d took=%dms\n",
			i%60, i%1000, i, i*7, i*13%9000, i%97)
	}
	ss := []String{{Text: "connection refused"}, {Text: "timed out", Fold: true}, {Text: "retry-after", Fold: true}}
	sc := NewSet(ss).NewScanner()
	b.SetBytes(int64(text.Len()))
	b.ReportAllocs()
	for b.Loop() {
		for i := 0; i < text.Len(); i += 128 << 10 {
			sc.Reset(text.Bytes()[i:min(i+128<<10, text.Len())])
			for {
				if _, _, ok := sc.Next(); !ok {
					break
				}
			}
		}
	}
}
