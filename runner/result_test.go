package runner

import "testing"

// TestResultKeepsFirstAndLast: past KeepFirst+KeepLast attempts, a Result
// keeps the first KeepFirst and the last KeepLast, in order, and counts
// them all.
func TestResultKeepsFirstAndLast(t *testing.T) {
	for _, total := range []int{0, 1, KeepFirst, KeepFirst + KeepLast, KeepFirst + KeepLast + 1, 20_000} {
		var res Result
		for n := 1; n <= total; n++ {
			a := res.add(n)
			a.ExitCode = n % 256
			if last := res.Last(); last != a || last.Number != n {
				t.Fatalf("total %d: after adding attempt %d, Last is attempt %d", total, n, last.Number)
			}
		}
		kept := min(total, KeepFirst+KeepLast)
		if res.Total != total || len(res.Attempts) != kept || res.Omitted() != total-kept {
			t.Fatalf("total %d: Total %d, %d kept, %d omitted; want %d, %d, %d", total, res.Total, len(res.Attempts), res.Omitted(), total, kept, total-kept)
		}
		for i, a := range res.Attempts {
			want := i + 1
			if i >= KeepFirst {
				want = total - kept + i + 1
			}
			if a.Number != want || a.ExitCode != want%256 {
				t.Errorf("total %d: Attempts[%d] is attempt %d (exit %d); want %d", total, i, a.Number, a.ExitCode, want)
			}
		}
		if cap(res.Attempts) > 2*(KeepFirst+KeepLast) {
			t.Errorf("total %d: capacity %d grows with the attempts", total, cap(res.Attempts))
		}
	}
}
