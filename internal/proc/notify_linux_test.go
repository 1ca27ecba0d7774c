//go:build linux && (amd64 || arm64)

package proc

import "syscall"

// action returns the address of sig's handler now (0: the default).
func action(sig syscall.Signal) (uintptr, bool) {
	var cur sigaction
	if !rtSigaction(sig, nil, &cur) {
		return 0, false
	}
	return cur.handler, true
}
