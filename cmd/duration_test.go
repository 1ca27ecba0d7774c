package cmd

import (
	"errors"
	"strings"
	"testing"
	"time"
)

func TestReadDuration(t *testing.T) {
	for _, tc := range []struct {
		in   string
		want time.Duration
		ok   bool
	}{
		{"", 0, true},
		{"0", 0, true},
		{"250ms", 250 * time.Millisecond, true},
		{"1m30s", 90 * time.Second, true},
		{"2h", 2 * time.Hour, true},
		{"1us", time.Microsecond, true},
		{"0s", 0, true},
		{"2d", 48 * time.Hour, true},
		{"0.5d", 12 * time.Hour, true},
		{"1.5h", 90 * time.Minute, true},
		{"300000d", 0, false},
		{"-1d", 0, false},
		{"d", 0, false},
		{".d", 0, false},
		{"1hd", 0, false},
		{"-1", 0, false},
		{"-1s", 0, false},
		{"soon", 0, false},
		{"1x", 0, false},
		{"NaN", 0, false},
		{"Inf", 0, false},
		{"1e300", 0, false},
		{"0x10", 0, false},
		{"9999999999999s", 0, false},
		{"1,2,4", 0, false},
	} {
		got, err := readDuration(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("readDuration(%q) = %v, %v; want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}

// TestReadDurationNoUnit checks that a number without a unit is refused
// with the fix, the number with "s", and that only "0" stands alone.
func TestReadDurationNoUnit(t *testing.T) {
	for _, tc := range []struct{ in, fix string }{
		{"5", "5s"},
		{"30", "30s"},
		{"0.5", "0.5s"},
		{".5", ".5s"},
		{"2.", "2.s"},
		{"00", "00s"},
		{"0.0", "0.0s"},
	} {
		_, err := readDuration(tc.in)
		var bare *noUnitError
		if !errors.As(err, &bare) || !strings.HasSuffix(err.Error(), " "+tc.fix) {
			t.Errorf("readDuration(%q) error %v; want no unit, fixed as %s", tc.in, err, tc.fix)
		}
	}
	for _, in := range []string{"-5", "5x", "1e3", "Inf", "5s", "0"} {
		var bare *noUnitError
		if _, err := readDuration(in); errors.As(err, &bare) {
			t.Errorf("readDuration(%q) says it has no unit", in)
		}
	}
}
