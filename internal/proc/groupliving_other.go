//go:build unix && !linux

package proc

// groupLiving reports true: the group exists, and where /proc cannot tell
// zombies apart, the system's init reaps orphans soon enough.
func groupLiving(int) bool { return true }
