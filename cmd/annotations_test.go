package cmd

import (
	"bytes"
	"fmt"
	"strings"
	"testing"

	"github.com/b0a38808/retry/internal/ci"
	"github.com/b0a38808/retry/runner"
)

// TestAnnotationsCap checks that a run writes at most 10 warning
// annotations, the first nine as the attempts come, and the last, when
// the run ends, the tenth attempt's own or one that counts those left out.
func TestAnnotationsCap(t *testing.T) {
	for _, tc := range []struct {
		retried     int
		omitted     int // attempts the Result leaves out
		stepSummary string
		want        int    // annotations
		last        string // the last one's message; "" for the attempt's own
		flaky       string // the flaky pass's line; "" for none
	}{
		{0, 0, "", 0, "", ""},
		{1, 0, "", 1, "", ""},
		{9, 0, "", 9, "", ""},
		{10, 0, "", 10, "", ""},
		{11, 0, "/s", 10, "2 more retried attempts, 10 to 11, are not annotated: at most 10 annotations a run; the step summary lists every attempt", ""},
		{57, 0, "", 10, "48 more retried attempts, 10 to 57, are not annotated: at most 10 annotations a run", ""},
		{249, 50, "/s", 10, "240 more retried attempts, 10 to 249, are not annotated: at most 10 annotations a run; the step summary lists the first 100 and the last 100 attempts", ""},
		// A flaky pass's annotation is always made: the tenth is held for it.
		{1, 0, "", 2, "passed on attempt 2 of 3 (flaky)", "passed on attempt 2 of 3 (flaky)"},
		{9, 0, "", 10, "passed on attempt 10 of 10 (flaky)", "passed on attempt 10 of 10 (flaky)"},
		{10, 0, "", 10, "passed on attempt 11 of 11 (flaky); retried attempt 10 is not annotated: at most 10 annotations a run", "passed on attempt 11 of 11 (flaky)"},
		{12, 0, "", 10, "passed on attempt 13 of 13 (flaky); 3 more retried attempts, 10 to 12, are not annotated: at most 10 annotations a run", "passed on attempt 13 of 13 (flaky)"},
	} {
		t.Run(fmt.Sprint(tc.retried, tc.flaky != ""), func(t *testing.T) {
			var w bytes.Buffer
			p := &reporter{w: &w, givenName: "job", ci: ciRun{system: ci.GitHub{}, annotator: ci.GitHub{}.Annotator(&w, nil), stepSummary: tc.stepSummary}}
			for n := 1; n <= tc.retried; n++ {
				p.annotate(&runner.Attempt{Number: n}, fmt.Sprintf("attempt %d failed", n))
				if n <= 9 && strings.Count(w.String(), "::warning") != n {
					t.Fatalf("after attempt %d: %d annotations, want %d as they come", n, strings.Count(w.String(), "::warning"), n)
				}
			}
			p.flushAnnotations(tc.flaky, tc.omitted)
			p.flushAnnotations("", tc.omitted) // finish may run twice: nothing more
			lines := strings.Split(strings.TrimSuffix(w.String(), "\n"), "\n")
			if w.Len() == 0 {
				lines = nil
			}
			if len(lines) != tc.want {
				t.Fatalf("%d annotations, want %d:\n%s", len(lines), tc.want, &w)
			}
			if tc.want == 0 {
				return
			}
			last := strings.TrimPrefix(lines[len(lines)-1], "::warning title=retry job::")
			want := tc.last
			if want == "" {
				want = fmt.Sprintf("attempt %d failed", tc.retried)
			}
			if last != want {
				t.Errorf("last annotation %q, want %q", last, want)
			}
		})
	}
}
