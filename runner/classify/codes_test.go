package classify

import (
	"strings"
	"testing"
)

func TestParseCodes(t *testing.T) {
	tests := []struct {
		in      string
		want    string // canonical String(); ignored on error
		in1     []int  // codes that must be in the set
		out     []int  // codes that must not be
		wantErr string // substring of the error
	}{
		{in: "1", want: "1", in1: []int{1}, out: []int{0, 2, 255}},
		{in: "1,75,100-110", want: "1,75,100-110", in1: []int{1, 75, 100, 105, 110}, out: []int{2, 99, 111}},
		{in: " 0 , 255 ", want: "0,255", in1: []int{0, 255}, out: []int{1, 254}},
		{in: "0-255", want: "0-255", in1: []int{0, 128, 255}},
		{in: "5-5", want: "5", in1: []int{5}, out: []int{4, 6}},
		{in: "3,1,2", want: "1-3"},
		{in: "1,2", want: "1,2"},
		{in: "7,7,7", want: "7"},
		{in: "010", want: "10", in1: []int{10}},
		{in: "", wantErr: "empty code list"},
		{in: "  ", wantErr: "empty code list"},
		{in: "1,,2", wantErr: `empty item in "1,,2"`},
		{in: "1,", wantErr: "empty item"},
		{in: "abc", wantErr: `bad code "abc": want a number 0-255, a range like 100-110, or timeout`},
		{in: "-1", wantErr: `bad code "-1"`},
		{in: "+1", wantErr: `bad code "+1"`},
		{in: "1-", wantErr: `bad code "1-"`},
		{in: "1-2-3", wantErr: `bad code "1-2-3"`},
		{in: "256", wantErr: `code 256 in "256" is out of range: exit codes are 0-255`},
		{in: "99999999999999999999", wantErr: "out of range"},
		{in: "100-300", wantErr: `code 300 in "100-300" is out of range`},
		{in: "110-100", wantErr: `range "110-100" runs backwards: write 100-110`},
		{in: "1.5", wantErr: `bad code "1.5"`},
		{in: "timeout", want: "timeout", out: []int{0, 1, 124, 255}},
		{in: "timeout,75,1", want: "1,75,timeout", in1: []int{1, 75}, out: []int{124}},
		{in: " timeout , timeout", want: "timeout"},
		{in: "Timeout", wantErr: `bad code "Timeout": want a number 0-255, a range like 100-110, or timeout`},
		{in: "timeout-5", wantErr: `bad code "timeout-5"`},
		{in: "1-timeout", wantErr: `bad code "1-timeout"`},
	}
	for _, tt := range tests {
		t.Run(tt.in, func(t *testing.T) {
			c, err := ParseCodes(tt.in)
			if tt.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
					t.Fatalf("ParseCodes(%q) error = %v, want it to contain %q", tt.in, err, tt.wantErr)
				}
				if !c.Empty() {
					t.Errorf("ParseCodes(%q) returned a non-empty set with its error: %v", tt.in, c)
				}
				return
			}
			if err != nil {
				t.Fatalf("ParseCodes(%q): %v", tt.in, err)
			}
			if got := c.String(); got != tt.want {
				t.Errorf("ParseCodes(%q).String() = %q, want %q", tt.in, got, tt.want)
			}
			for _, code := range tt.in1 {
				if !c.Contains(code) {
					t.Errorf("set %v does not contain %d", c, code)
				}
			}
			for _, code := range tt.out {
				if c.Contains(code) {
					t.Errorf("set %v contains %d", c, code)
				}
			}
		})
	}
}

func TestCodesOutOfRange(t *testing.T) {
	var c Codes
	c.Add(-1)
	c.Add(256)
	if !c.Empty() {
		t.Fatalf("Add outside 0-255 changed the set: %v", c)
	}
	all, _ := ParseCodes("0-255")
	for _, code := range []int{-1, 256, 1 << 20} {
		if all.Contains(code) {
			t.Errorf("Contains(%d) = true, want false", code)
		}
	}
}

func TestCodesUnion(t *testing.T) {
	a, _ := ParseCodes("1-3")
	b, _ := ParseCodes("3,200")
	a.Union(b)
	if got, want := a.String(), "1-3,200"; got != want {
		t.Errorf("union = %q, want %q", got, want)
	}
}

// FuzzParseCodes checks that ParseCodes never panics, that what it accepts
// round-trips through String, and that a set holds only what the list named.
func FuzzParseCodes(f *testing.F) {
	for _, s := range []string{"1", "1,75,100-110", "0-255", "255", "256", "1,,2", "110-100", " 7 ", "-", "9-", "1-2-3", "٣", "timeout", "1,timeout", "timeout-1"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, s string) {
		c, err := ParseCodes(s)
		if err != nil {
			if !c.Empty() {
				t.Fatalf("error %v came with a non-empty set", err)
			}
			return
		}
		if c.Empty() {
			t.Fatalf("ParseCodes(%q) accepted an empty set", s)
		}
		again, err := ParseCodes(c.String())
		if err != nil || again != c {
			t.Fatalf("String %q does not round-trip: %v, %v", c.String(), again, err)
		}
		for item := range strings.SplitSeq(s, ",") {
			if strings.TrimSpace(item) == TimeoutWord {
				if !c.Timeout {
					t.Fatalf("ParseCodes(%q) lost the word timeout", s)
				}
				continue
			}
			lo, _, _ := strings.Cut(strings.TrimSpace(item), "-")
			if !strings.ContainsAny(lo, "0123456789") {
				t.Fatalf("accepted item %q without digits", item)
			}
		}
	})
}
