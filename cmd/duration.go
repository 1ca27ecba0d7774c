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

// noUnitError is a duration flag value that is a number without a unit:
// read as seconds by some tools and as something else by others (Debian's
// retry reads -t 3 as three tries), it is refused rather than guessed.
type noUnitError struct {
	number string
}

func (e *noUnitError) Error() string { return "must have a unit, as in " + e.number + "s" }

// The errors of a duration that is not one, or is negative.
var (
	errNotDuration = errors.New("must be a duration such as 30s, 250ms, 1m30s or 2d")
	errNegative    = errors.New("must not be negative")
)

// readDuration reads a non-negative duration: a Go duration such as
// "1m30s", "250ms" or "1.5h", or a number of days such as "2d" or "0.5d".
// A number needs its unit; only "0" stands alone. The empty string is 0.
func readDuration(s string) (time.Duration, error) {
	if s == "" || s == "0" {
		return 0, nil
	}
	if bareNumber(s) {
		return 0, &noUnitError{number: s}
	}
	if num, ok := strings.CutSuffix(s, "d"); ok && bareNumber(num) {
		n, err := strconv.ParseFloat(num, 64)
		if err != nil {
			return 0, errNotDuration
		}
		return scaleDuration(n, 24*time.Hour)
	}
	d, err := time.ParseDuration(s)
	if err != nil {
		if n, perr := strconv.ParseFloat(s, 64); perr == nil && n < 0 {
			return 0, errNegative
		}
		return 0, errNotDuration
	}
	if d < 0 {
		return 0, errNegative
	}
	return d, nil
}

// bareNumber reports whether s is a decimal number without a sign or a
// unit: "5", "0.5", "2.", ".5".
func bareNumber(s string) bool {
	whole, frac, _ := strings.Cut(s, ".")
	return (whole != "" || frac != "") && digits(whole) && digits(frac)
}

// digits reports whether s holds only the digits 0-9 (or nothing).
func digits(s string) bool {
	return strings.IndexFunc(s, func(r rune) bool { return r < '0' || r > '9' }) < 0
}

// scaleDuration returns n units, for a number read from a flag.
func scaleDuration(n float64, unit time.Duration) (time.Duration, error) {
	switch {
	case math.IsNaN(n):
		return 0, errNotDuration
	case n < 0:
		return 0, errNegative
	case n*float64(unit) >= float64(maxDuration):
		return 0, errors.New("must be shorter than 290 years")
	}
	return time.Duration(n * float64(unit)), nil
}
