//go:build windows

package runner

import "io"

// readerGone reports false: Windows has no SIGPIPE to die from.
func readerGone(io.Writer) bool { return false }
