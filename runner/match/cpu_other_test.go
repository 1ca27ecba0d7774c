//go:build !linux

package match_test

// threadCPU reports -1: the CPU time of a thread is read on Linux only.
func threadCPU() int64 { return -1 }
