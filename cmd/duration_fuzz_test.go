package cmd

import (
	"strconv"
	"strings"
	"testing"
	"time"
)

// FuzzReadDuration checks that no flag value makes readDuration panic or
// return a negative duration, that Go durations read as Go reads them,
// and that no number other than 0 is read without its unit.
func FuzzReadDuration(f *testing.F) {
	for _, s := range []string{"", "0", "30", "0.5", "1m30s", "250ms", "-1", "-1s", "Inf", "NaN", "1e3", "0x10", "9223372036.9", "1e300", "2562047h47m16.854775807s", "1.5.3", "2d", "0.5d", "-1d", "d"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		d, err := readDuration(s)
		if err != nil {
			if !strings.HasPrefix(err.Error(), "must ") {
				t.Fatalf("readDuration(%q) error %q does not read as a flag message", s, err)
			}
			return
		}
		if d < 0 {
			t.Fatalf("readDuration(%q) = %v, want >= 0", s, d)
		}
		if g, gerr := time.ParseDuration(s); gerr == nil && g != d && strings.ContainsAny(s, "hmsuµn") {
			t.Fatalf("readDuration(%q) = %v, time.ParseDuration says %v", s, d, g)
		}
		if n, ferr := strconv.ParseFloat(s, 64); ferr == nil && n != 0 {
			t.Fatalf("readDuration(%q) = %v: a number without its unit was read", s, d)
		}
	})
}
