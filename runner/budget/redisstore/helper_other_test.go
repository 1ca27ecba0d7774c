//go:build !unix

package redisstore

import "testing"

// installHelper does nothing: TLS runs in process here.
func installHelper() func() { return func() {} }

// needHelper does nothing: TLS runs in process here.
func needHelper(*testing.T) {}

// helperChild is not called: there is no helper here.
func helperChild(string) {}
