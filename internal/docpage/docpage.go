// Package docpage rewrites the generated part of a hand-written page:
// the text between two marker lines, which a program writes from its
// figures or definitions while the rest of the page stays the author's.
// It is internal: other Go programs cannot import it.
package docpage

import (
	"fmt"
	"strings"
)

// Replace returns page with the text between begin and the first end
// after it replaced by generated; the markers stay. It fails when page
// lacks either marker.
func Replace(page, begin, end, generated string) (string, error) {
	before, rest, ok := strings.Cut(page, begin)
	if !ok {
		return "", fmt.Errorf("no %q", strings.TrimSpace(begin))
	}
	_, after, ok := strings.Cut(rest, end)
	if !ok {
		return "", fmt.Errorf("no %q after %q", strings.TrimSpace(end), strings.TrimSpace(begin))
	}
	return before + begin + generated + end + after, nil
}
