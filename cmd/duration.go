package cmd

import (
	"fmt"
	"math"
	"strconv"
	"time"
)

// readDuration reads a non-negative duration: a Go duration such as
// "1m30s" or "250ms", or a plain number of seconds such as "30" or "0.5".
// The empty string is 0.
func readDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	if secs, err := strconv.ParseFloat(s, 64); err == nil {
		if secs < 0 || math.IsNaN(secs) || secs*float64(time.Second) >= math.MaxInt64 {
			return 0, fmt.Errorf("must be a non-negative duration, got %q", s)
		}
		return time.Duration(secs * float64(time.Second)), nil
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, fmt.Errorf("must be a duration such as 30s, 250ms or 1m30s, got %q", s)
	}
	if d < 0 {
		return 0, fmt.Errorf("must be a non-negative duration, got %q", s)
	}
	return d, nil
}
