package classify

import (
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
