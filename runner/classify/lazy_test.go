package classify

import (
	"testing"
	"time"
)

// TestDefaultHintCompiledOnFirstLine guards the start-up path: a matcher
// watching for Retry-After compiles its expression only when output
// arrives, so an attempt that prints nothing never compiles it.
func TestDefaultHintCompiledOnFirstLine(t *testing.T) {
	m := NewMatcher(Watch{Hints: true, Now: func() time.Time { return testNow }})
	w := m.Writer("stderr")
	if m.hint != nil {
		t.Fatal("NewMatcher compiled the Retry-After expression before any output")
	}
	w.Close()
	if out := m.Output(); out.HasHint || m.hint != nil {
		t.Errorf("silent attempt: hint %v/%v, compiled %v; want none and not compiled", out.Hint, out.HasHint, m.hint != nil)
	}

	m = NewMatcher(Watch{Hints: true, Now: func() time.Time { return testNow }})
	w = m.Writer("stderr")
	w.Write([]byte("HTTP/1.1 503\r\nRetry-After: 7\r\n"))
	w.Close()
	if out := m.Output(); !out.HasHint || out.Hint.Seconds() != 7 {
		t.Errorf("hint %v/%v; want 7s/true", out.Hint, out.HasHint)
	}
}
