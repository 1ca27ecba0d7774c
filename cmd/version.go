package cmd

import "runtime/debug"

// resolveVersion returns the version linked in at build time or, for a
// `go install` build, the module version recorded in the binary.
func resolveVersion(linked string) string {
	if linked != "" {
		return linked
	}
	if info, ok := debug.ReadBuildInfo(); ok && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
