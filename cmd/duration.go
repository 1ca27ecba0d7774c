package cmd

import (
	"errors"
	"math"
	"strconv"
	"strings"
	"time"
)

// maxDuration is the longest duration time.Duration holds, about 292
// years.
const maxDuration = time.Duration(math.MaxInt64)

// readDuration reads a non-negative duration: a Go duration such as
// "1m30s" or "250ms", or a plain number with an optional unit s, m, h or d
// as timeout(1) takes it, such as "30", "0.5", "1.5h" or "2d". The empty
// string is 0.
func readDuration(s string) (time.Duration, error) {
	if s == "" {
		return 0, nil
	}
	num, unit := s, time.Second
	if strings.HasSuffix(s, "d") {
		num, unit = strings.TrimSuffix(s, "d"), 24*time.Hour
	}
	if n, err := strconv.ParseFloat(num, 64); err == nil {
		return scaleDuration(n, unit)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		return 0, errors.New("must be a duration such as 30s, 250ms, 1m30s or 2d")
	}
	if d < 0 {
		return 0, errors.New("must not be negative")
	}
	return d, nil
}

// scaleDuration returns n units, for a number read from a flag.
func scaleDuration(n float64, unit time.Duration) (time.Duration, error) {
	switch {
	case math.IsNaN(n):
		return 0, errors.New("must be a number of seconds or a duration such as 30s")
	case n < 0:
		return 0, errors.New("must not be negative")
	case n*float64(unit) >= float64(maxDuration):
		return 0, errors.New("must be shorter than 290 years")
	}
	return time.Duration(n * float64(unit)), nil
}
