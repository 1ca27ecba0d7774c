package cmd

import (
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
		{"30", 30 * time.Second, true},
		{"0.5", 500 * time.Millisecond, true},
		{"250ms", 250 * time.Millisecond, true},
		{"1m30s", 90 * time.Second, true},
		{"2h", 2 * time.Hour, true},
		{"1us", time.Microsecond, true},
		{"2d", 48 * time.Hour, true},
		{"0.5d", 12 * time.Hour, true},
		{"1.5h", 90 * time.Minute, true},
		{"-1d", 0, false},
		{"d", 0, false},
		{"1hd", 0, false},
		{"-1", 0, false},
		{"-1s", 0, false},
		{"soon", 0, false},
		{"1x", 0, false},
		{"NaN", 0, false},
		{"Inf", 0, false},
		{"1e300", 0, false},
		{"9999999999999s", 0, false},
	} {
		got, err := readDuration(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("readDuration(%q) = %v, %v; want %v (ok %v)", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
