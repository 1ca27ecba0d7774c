package match

import (
	"slices"
	"strings"
	"testing"
	"time"
)

// TestSharedSearch checks that the Matchers of one Search compile it
// once, that each still finds its own matches (a match in one
// attempt retires nothing in the next), and that changed rules compile
// anew.
func TestSharedSearch(t *testing.T) {
	s, hint := new(Search), retryAfter()
	retryIf := mustPatterns(t, "connection refused", "(?i)timed out")
	attempt := func(text string) Output {
		t.Helper()
		m := New(Config{RetryIf: retryIf, Hint: hint, ParseHint: parseSeconds, Search: s})
		m.Writer("stderr").Write([]byte(text))
		return m.Output()
	}
	if out := attempt("dial: connection refused\n"); out.RetryIf == nil || out.RetryIf.Pattern != "connection refused" {
		t.Fatalf("first attempt: %+v", out.RetryIf)
	}
	set := s.set
	if out := attempt("ok\nread: Timed Out\n"); out.RetryIf == nil || out.RetryIf.Pattern != "(?i)timed out" {
		t.Fatalf("second attempt: %+v", out.RetryIf)
	}
	if out := attempt("dial: connection refused\nRetry-After: 7\n"); out.RetryIf == nil || out.RetryIf.Pattern != "connection refused" || !out.HasHint || out.Hint != 7*time.Second {
		t.Fatalf("third attempt: %+v", out)
	}
	if s.set != set {
		t.Fatal("the same rules compiled their search again")
	}
	retryIf = mustPatterns(t, "no route to host")
	if out := attempt("connect: no route to host\n"); out.RetryIf == nil || out.RetryIf.Pattern != "no route to host" {
		t.Fatalf("changed rules: %+v", out.RetryIf)
	}
	if s.set == set {
		t.Fatal("changed rules kept the old search")
	}
}

// TestGather: the strings of a rule set are each gathered once, with every
// pattern that holds them, whether all the patterns are one Table's (told
// apart by their ids there) or some are not (by a map).
func TestGather(t *testing.T) {
	const shared = "TLS handshake timeout"
	withShared := []string{
		"(" + shared + "|i/o timeout)",
		"(connection refused|" + shared + ")",
		"(?i)(connection reset by peer|" + shared + ")",
	}
	tab := NewTable(append(slices.Clone(withShared), retryAfter().String()))
	other := NewTable([]string{shared})
	known := func(exprs ...string) []*Pattern {
		ps := make([]*Pattern, len(exprs))
		for i, e := range exprs {
			ps[i] = tab.Known(e)
		}
		return ps
	}
	for _, tt := range []struct {
		name string
		pats []*Pattern
	}{
		{"table", known(append(slices.Clone(withShared), retryAfter().String())...)},
		{"mixed", append(known(withShared...), mustPatterns(t, shared, "(?i)quota exceeded", `^\d+$`)...)},
		{"two tables", append(known(withShared...), other.Known(shared))},
	} {
		t.Run(tt.name, func(t *testing.T) {
			pats := tt.pats
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

// TestSearchKeepsChosen: the later attempts of a Search start from the
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
			s := new(Search)
			w := New(Config{RetryIf: mustPatterns(t, "connection refused", "(?i)timed out"), Hint: retryAfter(), ParseHint: parseSeconds, Search: s}).Writer("stderr")
			w.Write([]byte("starting\n"))
			for range tt.writes {
				w.Write(line)
			}
			if got := s.tuned != nil; got != tt.kept {
				t.Fatalf("kept a tuned scanner: %t, want %t", got, tt.kept)
			}
			if tt.kept && !s.tuned.Chosen() {
				t.Errorf("the scanner kept has not chosen from the text")
			}
		})
	}
}

// TestSharedSearchChoosesAgain: a later attempt, which starts on the search
// the first one chose, chooses again when its output is of another kind,
// and still finds its match.
func TestSharedSearchChoosesAgain(t *testing.T) {
	s := new(Search)
	retryIf := mustPatterns(t, "connection refused", "connection reset", "(?i)timed out", `HTTP/1\.1 503`)
	quiet := strings.Repeat("GET /api/v1/items 200 ok 12ms\n", 4<<10)
	busy := strings.Repeat("connecting to db-1:5432 (attempt 2) connection re\n", 4<<10)
	for i, text := range []string{quiet, busy} {
		m := New(Config{RetryIf: retryIf, Search: s})
		w := m.Writer("stderr")
		for range 40 {
			w.Write([]byte(text))
		}
		w.Write([]byte("read: connection reset by peer\n"))
		w.Close()
		if out := m.Output(); out.RetryIf == nil || out.RetryIf.Pattern != "connection reset" {
			t.Fatalf("attempt %d: %+v, want the connection reset", i+1, out.RetryIf)
		}
	}
}
