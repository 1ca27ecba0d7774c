//go:build !unix

package cmd

// raise does nothing where a process cannot send itself a signal; the
// caller exits with 128+sig instead.
func raise(int) {}
