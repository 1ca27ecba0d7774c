package classify

import (
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"
	"time"

	"github.com/b0a38808/retry/runner/match"
)

// retryAfter finds a Retry-After header line, as curl -D or -i prints it,
// or curl -v with its "< " marker; the capture is the field value.
const retryAfter = `(?i)^[\t ]*(?:<[\t ]*)?retry-after[\t ]*:[\t ]*(.*?)[\t ]*$`

// CompileHintPattern compiles a --hint-pattern: a line expression with
// exactly one capture group, which catches the wait.
func CompileHintPattern(expr string) (*match.Pattern, error) {
	p, err := match.Compile(expr)
	if err != nil {
		return nil, err
	}
	if n := p.Groups(); n != 1 {
		return nil, fmt.Errorf("%q has %d capture groups, want exactly one around the wait, as in %q", expr, n, `retry in (\d+)s`)
	}
	return p, nil
}

// The three HTTP-date forms of RFC 9110 section 5.6.7, in the order a
// recipient tries them.
const (
	imfFixdate  = "Mon, 02 Jan 2006 15:04:05 GMT"
	rfc850Date  = "Monday, 02-Jan-06 15:04:05 GMT"
	asctimeDate = "Mon Jan _2 15:04:05 2006"
)

// errNoHint reports a hint value that is neither a delay nor a date.
var errNoHint = errors.New("not a delay in seconds, a duration or an HTTP-date")

// ParseRetryAfter parses the value of a Retry-After header field (RFC 9110
// section 10.2.3): delay-seconds, a run of digits, or an HTTP-date in any of
// its three forms (IMF-fixdate, RFC 850, asctime), which is taken relative to
// now. A date in the past is a zero wait. Surrounding whitespace, including a
// trailing CR, is ignored. Huge delays saturate at the largest Duration.
func ParseRetryAfter(value string, now time.Time) (time.Duration, error) {
	value = strings.TrimSpace(value)
	if d, ok := parseDelaySeconds(value); ok {
		return d, nil
	}
	if t, ok := parseHTTPDate(value, now); ok {
		return untilDate(t, now), nil
	}
	return 0, errNoHint
}

// ParseHintValue parses what a --hint-pattern capture group caught: a number
// of seconds (fractions allowed), a Go duration such as "1m30s", or an
// HTTP-date relative to now. Negative waits are refused.
func ParseHintValue(value string, now time.Time) (time.Duration, error) {
	value = strings.TrimSpace(value)
	if d, ok := parseDelaySeconds(value); ok {
		return d, nil
	}
	if f, err := strconv.ParseFloat(value, 64); err == nil && isDecimal(value) {
		return secondsToDuration(f), nil
	}
	if d, err := time.ParseDuration(value); err == nil {
		if d < 0 {
			return 0, errNoHint
		}
		return d, nil
	}
	if t, ok := parseHTTPDate(value, now); ok {
		return untilDate(t, now), nil
	}
	return 0, errNoHint
}

// parseDelaySeconds parses RFC 9110 delay-seconds: 1*DIGIT, saturating.
func parseDelaySeconds(s string) (time.Duration, bool) {
	if s == "" {
		return 0, false
	}
	const maxSeconds = int64(math.MaxInt64 / int64(time.Second))
	var n int64
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c < '0' || c > '9' {
			return 0, false
		}
		if n <= maxSeconds {
			n = n*10 + int64(c-'0')
		}
	}
	if n > maxSeconds {
		return time.Duration(math.MaxInt64), true
	}
	return time.Duration(n) * time.Second, true
}

// isDecimal reports whether s is digits with at most one decimal point, so
// that ParseFloat's hex, exponent, sign, "Inf" and "NaN" forms are refused.
func isDecimal(s string) bool {
	digits, dots := 0, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.':
			dots++
		default:
			return false
		}
	}
	return digits > 0 && dots <= 1
}

// secondsToDuration converts non-negative seconds, saturating.
func secondsToDuration(f float64) time.Duration {
	if f*float64(time.Second) >= math.MaxInt64 {
		return time.Duration(math.MaxInt64)
	}
	return time.Duration(f * float64(time.Second))
}

// parseHTTPDate parses the three HTTP-date forms; all are in GMT. An RFC 850
// date's two-digit year is read as RFC 9110 asks: a year that would be more
// than 50 years after now is the most recent past year with those digits.
func parseHTTPDate(s string, now time.Time) (time.Time, bool) {
	if t, err := time.Parse(imfFixdate, s); err == nil {
		return t, true
	}
	if t, err := time.Parse(asctimeDate, s); err == nil {
		return t, true
	}
	t, err := time.Parse(rfc850Date, s)
	if err != nil {
		return time.Time{}, false
	}
	nowYear := now.UTC().Year()
	year := nowYear - nowYear%100 + t.Year()%100
	if year > nowYear+50 {
		year -= 100
	} else if year <= nowYear-50 {
		year += 100
	}
	return t.AddDate(year-t.Year(), 0, 0), true
}

// untilDate is the wait from now until t, zero when t has passed.
func untilDate(t, now time.Time) time.Duration {
	d := t.Sub(now)
	if d < 0 {
		return 0
	}
	return d
}
