package cmd

import "runtime/debug"

// resolveVersion returns the version linked in at build time or, for a
// `go install` build, the module version recorded in the binary. The
// build info is parsed only without a linked version: every run asks.
func resolveVersion(linked string) string {
	if linked != "" {
		return linked
	}
	info, _ := debug.ReadBuildInfo()
	return versionOf(linked, info)
}

// versionOf chooses between the linked version and the build info's
// (which is nil when the binary has none).
func versionOf(linked string, info *debug.BuildInfo) string {
	if linked != "" {
		return linked
	}
	if info != nil && info.Main.Version != "" {
		return info.Main.Version
	}
	return "(devel)"
}
