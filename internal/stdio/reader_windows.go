//go:build windows

package stdio

import "io"

// ReaderGone reports false: Windows has no SIGPIPE to die from.
func ReaderGone(io.Writer) bool { return false }
