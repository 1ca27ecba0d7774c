package classify

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSharedSearch checks that the Matchers of one Rules compile their
// search once, that each still finds its own matches (a match in one
// attempt retires nothing in the next), and that changed rules compile
// anew.
func TestSharedSearch(t *testing.T) {
	r := Rules{RetryIf: mustPatterns(t, "connection refused", "(?i)timed out"), Hints: true}
	attempt := func(text string) Output {
		t.Helper()
		m := r.NewMatcher(time.Now)
		m.Writer("stderr").Write([]byte(text))
		return m.Output()
	}
	if out := attempt("dial: connection refused\n"); out.RetryIf == nil || out.RetryIf.Pattern != "connection refused" {
		t.Fatalf("first attempt: %+v", out.RetryIf)
	}
	set := r.search.set
	if out := attempt("ok\nread: Timed Out\n"); out.RetryIf == nil || out.RetryIf.Pattern != "(?i)timed out" {
		t.Fatalf("second attempt: %+v", out.RetryIf)
	}
	if out := attempt("dial: connection refused\nRetry-After: 7\n"); out.RetryIf == nil || out.RetryIf.Pattern != "connection refused" || !out.HasHint || out.Hint != 7*time.Second {
		t.Fatalf("third attempt: %+v", out)
	}
	if r.search.set != set {
		t.Fatal("the same rules compiled their search again")
	}
	r.RetryIf = mustPatterns(t, "no route to host")
	if out := attempt("connect: no route to host\n"); out.RetryIf == nil || out.RetryIf.Pattern != "no route to host" {
		t.Fatalf("changed rules: %+v", out.RetryIf)
	}
	if r.search.set == set {
		t.Fatal("changed rules kept the old search")
	}
}

// TestGather: the strings of a rule set are each gathered once, with every
// pattern that holds them, whether all the patterns are the presets' (told
// apart by their table ids) or some are the user's (by a map).
func TestGather(t *testing.T) {
	const shared = "TLS handshake timeout" // in several presets' expressions
	var withShared []string
	for _, e := range tableExprs() {
		if strings.Contains(e, shared) {
			withShared = append(withShared, e)
		}
	}
	if len(withShared) < 2 {
		t.Fatalf("%q is in %d table expressions, want 2 or more", shared, len(withShared))
	}
	for _, tt := range []struct {
		name  string
		exprs []string
	}{
		{"table", append(slices.Clone(withShared), defaultHint)},
		{"mixed", append(slices.Clone(withShared), shared, "(?i)quota exceeded", `^\d+$`)},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pats := mustPatterns(t, tt.exprs...)
			ss, owners := gather(pats)
			// The reference: every pattern's strings, in turn, deduplicated
			// by text and case (a preset's carries an At, the user's not).
			type text struct {
				s    string
				fold bool
			}
			var want []text
			wantOwners := map[text][]int32{}
			for i, p := range pats {
				for _, l := range p.literals() {
					k := text{l.Text, l.Fold}
					if _, ok := wantOwners[k]; !ok {
						want = append(want, k)
					}
					wantOwners[k] = append(wantOwners[k], int32(i))
				}
			}
			var got []text
			for _, l := range ss {
				got = append(got, text{l.Text, l.Fold})
			}
			if !slices.Equal(got, want) {
				t.Fatalf("gathered %+v\nwant %+v", got, want)
			}
			for id, k := range got {
				if !slices.Equal(owners[id], wantOwners[k]) {
					t.Errorf("%+v is held by %v, want %v", k, owners[id], wantOwners[k])
				}
			}
			if got := owners[slices.Index(got, text{s: shared})]; len(got) < 2 {
				t.Errorf("%q is held by %v, want two patterns or more", shared, got)
			}
		})
	}
}

// TestSearchKeepsChosen: the later attempts of a Rules start from the
// anchors the first attempt chose from its output, once it has printed
// enough to choose; one that printed a line leaves nothing to start from.
func TestSearchKeepsChosen(t *testing.T) {
	line := []byte(strings.Repeat("2026-12-01T10:00:00Z INFO request served in 5ms\n", 80)) // 4 KiB
	for _, tt := range []struct {
		name   string
		writes int
		kept   bool
	}{
		{"one line", 0, false},
		{"128 KiB", 32, true},
	} {
		t.Run(tt.name, func(t *testing.T) {
			r := Rules{RetryIf: mustPatterns(t, "connection refused", "(?i)timed out"), Hints: true}
			w := r.NewMatcher(time.Now).Writer("stderr")
			w.Write([]byte("starting\n"))
			for range tt.writes {
				w.Write(line)
			}
			if got := r.search.tuned != nil; got != tt.kept {
				t.Fatalf("kept a tuned scanner: %t, want %t", got, tt.kept)
			}
			if tt.kept && !r.search.tuned.Chosen() {
				t.Errorf("the scanner kept has not chosen from the text")
			}
		})
	}
}
