package budget

import (
	"math"
	"strings"
	"testing"
	"time"
)

func TestPolicyAllows(t *testing.T) {
	tests := []struct {
		name      string
		p         Policy
		firsts    int64
		retries   int64
		allowance int64
		allows    bool
	}{
		{"empty window: the floor pays", DefaultPolicy(), 0, 0, 10, true},
		{"floor spent", DefaultPolicy(), 0, 10, 10, false},
		{"last retry of the floor", DefaultPolicy(), 0, 9, 10, true},
		{"ten firsts pay one retry", DefaultPolicy(), 10, 10, 11, true},
		{"nine firsts pay none", DefaultPolicy(), 9, 10, 10, false},
		{"ratio exact at 30 (no float drift)", Policy{Ratio: 0.1}, 30, 2, 3, true},
		{"ratio exact at 30, spent", Policy{Ratio: 0.1}, 30, 3, 3, false},
		{"ratio 0.3 at 10 firsts", Policy{Ratio: 0.3}, 10, 2, 3, true},
		{"ratio 0.3 at 10 firsts, spent", Policy{Ratio: 0.3}, 10, 3, 3, false},
		{"no floor, no firsts", Policy{Ratio: 0.1}, 0, 0, 0, false},
		{"nothing allowed at all", Policy{}, 1000, 0, 0, false},
		{"ratio above 1", Policy{Ratio: 2}, 5, 9, 10, true},
		{"huge counts do not overflow", Policy{Ratio: MaxRatio, Floor: math.MaxInt32}, 60 * maxCount, 0, math.MaxInt32 + MaxRatio*60*maxCount, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := tt.p.Allowance(tt.firsts); got != tt.allowance {
				t.Errorf("Allowance(%d) = %d, want %d", tt.firsts, got, tt.allowance)
			}
			if got := tt.p.Allows(tt.firsts, tt.retries); got != tt.allows {
				t.Errorf("Allows(%d, %d) = %v, want %v", tt.firsts, tt.retries, got, tt.allows)
			}
		})
	}
}

func TestPolicyValidate(t *testing.T) {
	tests := []struct {
		p    Policy
		want string // "" = valid
	}{
		{DefaultPolicy(), ""},
		{Policy{}, ""},
		{Policy{Ratio: MaxRatio}, ""},
		{Policy{Ratio: -0.1}, "ratio"},
		{Policy{Ratio: MaxRatio + 1}, "ratio"},
		{Policy{Ratio: math.NaN()}, "ratio"},
		{Policy{Ratio: math.Inf(1)}, "ratio"},
		{Policy{Floor: -1}, "floor"},
	}
	for _, tt := range tests {
		err := tt.p.Validate()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("%+v: got %v, want valid", tt.p, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
			t.Errorf("%+v: got %v, want an error about %s", tt.p, err, tt.want)
		}
	}
}

func TestValidateName(t *testing.T) {
	tests := []struct {
		name string
		ok   bool
	}{
		{"api", true},
		{"db-primary.eu_1", true},
		{"0", true},
		{strings.Repeat("a", maxNameLen), true},
		{"", false},
		{strings.Repeat("a", maxNameLen+1), false},
		{".hidden", false},
		{"-flag", false},
		{"a/b", false},
		{"..", false},
		{"a b", false},
		{"é", false},
		{"a\x00", false},
	}
	for _, tt := range tests {
		if err := ValidateName(tt.name); (err == nil) != tt.ok {
			t.Errorf("ValidateName(%q) = %v, want ok=%v", tt.name, err, tt.ok)
		}
	}
}

func TestDecodeState(t *testing.T) {
	tests := []struct {
		name    string
		data    string
		buckets int
		corrupt bool
	}{
		{"never used", "", 0, false},
		{"valid", `{"version":1,"buckets":[{"s":100,"firsts":3,"retries":1}]}`, 1, false},
		{"valid, no buckets", `{"version":1}`, 0, false},
		{"not json", "garbage\x00\x01", 0, true},
		{"truncated", `{"version":1,"buckets":[{"s":1`, 0, true},
		{"trailing data", `{"version":1} {}`, 0, true},
		{"wrong version", `{"version":2,"buckets":[]}`, 0, true},
		{"no version", `{"buckets":[]}`, 0, true},
		{"negative count", `{"version":1,"buckets":[{"s":100,"firsts":-1,"retries":0}]}`, 0, true},
		{"count out of range", `{"version":1,"buckets":[{"s":100,"firsts":0,"retries":99999999999999}]}`, 0, true},
		{"wrong type", `{"version":"1"}`, 0, true},
		{"too large", `{"version":1,"buckets":[]}` + strings.Repeat(" ", maxStateSize), 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := decodeState([]byte(tt.data))
			if (err != nil) != tt.corrupt {
				t.Fatalf("err = %v, want corrupt=%v", err, tt.corrupt)
			}
			if got := len(s.Buckets); got != tt.buckets {
				t.Errorf("got %d buckets, want %d", got, tt.buckets)
			}
		})
	}
}

func TestStateRoundTrip(t *testing.T) {
	var s state
	s.Version = stateVersion
	now := time.Unix(1000, 0)
	s.add(now, 2, 1)
	s.add(now.Add(time.Second), 1, 0)
	got, err := decodeState(s.encode())
	if err != nil {
		t.Fatal(err)
	}
	if f, r := got.totals(); f != 3 || r != 1 {
		t.Errorf("totals after round trip = %d, %d, want 3, 1", f, r)
	}
}

func TestPruneAndAdd(t *testing.T) {
	now := time.Unix(10_000, 0)
	sec := now.Unix()
	span := int64(Window / time.Second)
	tests := []struct {
		name    string
		buckets []bucket
		firsts  int64
		retries int64
		kept    int
	}{
		{"empty", nil, 0, 0, 0},
		{"current second", []bucket{{sec, 2, 1}}, 2, 1, 1},
		{"oldest second still in the window", []bucket{{sec - span + 1, 1, 0}}, 1, 0, 1},
		{"one window old: gone", []bucket{{sec - span, 1, 1}}, 0, 0, 0},
		{"ancient: gone", []bucket{{0, 5, 5}, {sec, 1, 0}}, 1, 0, 1},
		{"slightly ahead (clock set back a little): kept", []bucket{{sec + 5, 1, 1}}, 1, 1, 1},
		{"far ahead (clock set back): gone", []bucket{{sec + span, 7, 7}}, 0, 0, 0},
		{"unsorted duplicates are merged", []bucket{{sec, 1, 0}, {sec - 1, 1, 1}, {sec, 2, 3}}, 4, 4, 2},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := state{Version: stateVersion, Buckets: tt.buckets}
			s.prune(now)
			f, r := s.totals()
			if f != tt.firsts || r != tt.retries || len(s.Buckets) != tt.kept {
				t.Errorf("after prune: %d firsts, %d retries, %d buckets; want %d, %d, %d", f, r, len(s.Buckets), tt.firsts, tt.retries, tt.kept)
			}
			for i := 1; i < len(s.Buckets); i++ {
				if s.Buckets[i-1].Second >= s.Buckets[i].Second {
					t.Errorf("buckets not sorted and unique: %+v", s.Buckets)
				}
			}
		})
	}
}

func TestAddKeepsOrder(t *testing.T) {
	s := state{Version: stateVersion}
	base := time.Unix(5000, 0)
	for _, d := range []int{3, 1, 2, 3, 0} {
		s.add(base.Add(time.Duration(d)*time.Second), 1, 0)
	}
	var secs []int64
	for _, b := range s.Buckets {
		secs = append(secs, b.Second-base.Unix())
	}
	want := []int64{0, 1, 2, 3}
	if len(secs) != len(want) {
		t.Fatalf("seconds = %v, want %v", secs, want)
	}
	for i := range want {
		if secs[i] != want[i] {
			t.Fatalf("seconds = %v, want %v", secs, want)
		}
	}
	if f, _ := s.totals(); f != 5 {
		t.Errorf("firsts = %d, want 5", f)
	}
	s.add(base, 0, maxCount+5)
	if _, r := s.totals(); r != maxCount {
		t.Errorf("retries = %d, want saturated at %d", r, maxCount)
	}
}
