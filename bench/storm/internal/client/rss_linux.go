package client

import (
	"os"
	"syscall"
)

// maxRSS returns the peak resident set of an exited process, in bytes:
// wait4's ru_maxrss, which Linux gives in KiB and which covers the
// process and the children it waited for.
func maxRSS(ps *os.ProcessState) int64 {
	if ru, ok := ps.SysUsage().(*syscall.Rusage); ok {
		return ru.Maxrss * 1024
	}
	return 0
}
