//go:build !linux

package client

import "os"

// maxRSS returns 0: the storm reads peak RSS on Linux only.
func maxRSS(*os.ProcessState) int64 { return 0 }
