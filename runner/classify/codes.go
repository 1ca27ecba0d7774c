package classify

import (
	"fmt"
	"strconv"
	"strings"
)

// Codes is a set of exit codes 0-255, as given to --retry-on and --stop-on,
// and of the word timeout: an attempt cut by its timeout or the deadline,
// whatever it exited with. The zero value is the empty set.
type Codes struct {
	bits [4]uint64
	// Timeout: the set holds the word timeout.
	Timeout bool
}

// TimeoutWord is the word of a code list that stands for an attempt cut
// by its timeout or the deadline.
const TimeoutWord = "timeout"

// ParseCodes parses a comma-separated list of exit codes, inclusive
// ranges and the word timeout, such as "1,75,100-110" or "timeout". Every
// code must be in 0-255. The error names the offending item and suits a
// "retry: --retry-on: " prefix.
func ParseCodes(s string) (Codes, error) {
	var c Codes
	if strings.TrimSpace(s) == "" {
		return c, fmt.Errorf("empty code list: want codes and ranges like 1,75,100-110")
	}
	for item := range strings.SplitSeq(s, ",") {
		item = strings.TrimSpace(item)
		if item == "" {
			return Codes{}, fmt.Errorf("empty item in %q: want codes and ranges like 1,75,100-110", s)
		}
		if item == TimeoutWord {
			c.Timeout = true
			continue
		}
		lo, hi, isRange := strings.Cut(item, "-")
		first, err := parseCode(lo, item)
		if err != nil {
			return Codes{}, err
		}
		last := first
		if isRange {
			if last, err = parseCode(hi, item); err != nil {
				return Codes{}, err
			}
			if last < first {
				return Codes{}, fmt.Errorf("range %q runs backwards: write %d-%d", item, last, first)
			}
		}
		for code := first; code <= last; code++ {
			c.Add(code)
		}
	}
	return c, nil
}

// parseCode parses one code of item, which is quoted in the error.
func parseCode(s, item string) (int, error) {
	s = strings.TrimSpace(s)
	if s == "" || strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) >= 0 {
		return 0, fmt.Errorf("bad code %q: want a number 0-255, a range like 100-110, or timeout", item)
	}
	n, err := strconv.Atoi(s)
	if err != nil || n > 255 {
		return 0, fmt.Errorf("code %s in %q is out of range: exit codes are 0-255", s, item)
	}
	return n, nil
}

// Add puts code in the set; codes outside 0-255 are ignored.
func (c *Codes) Add(code int) {
	if code >= 0 && code <= 255 {
		c.bits[code>>6] |= 1 << (code & 63)
	}
}

// Union adds every code of o to the set, and its timeout.
func (c *Codes) Union(o Codes) {
	for i := range c.bits {
		c.bits[i] |= o.bits[i]
	}
	c.Timeout = c.Timeout || o.Timeout
}

// Contains reports whether code is in the set.
func (c Codes) Contains(code int) bool {
	return code >= 0 && code <= 255 && c.bits[code>>6]&(1<<(code&63)) != 0
}

// Empty reports whether the set has no code and no timeout.
func (c Codes) Empty() bool {
	return c.bits == [4]uint64{} && !c.Timeout
}

// String returns the set in the canonical form ParseCodes accepts: ascending
// codes, runs of three or more written as ranges, then the word timeout
// ("1,2,75,100-110,timeout").
func (c Codes) String() string {
	var b strings.Builder
	for code := 0; code <= 255; code++ {
		if !c.Contains(code) {
			continue
		}
		end := code
		for end < 255 && c.Contains(end+1) {
			end++
		}
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		switch {
		case end == code:
			b.WriteString(strconv.Itoa(code))
		case end == code+1:
			fmt.Fprintf(&b, "%d,%d", code, end)
		default:
			fmt.Fprintf(&b, "%d-%d", code, end)
		}
		code = end
	}
	if c.Timeout {
		if b.Len() > 0 {
			b.WriteByte(',')
		}
		b.WriteString(TimeoutWord)
	}
	return b.String()
}
