//go:build windows

package proc

import "time"

// Watch has nothing to start on Windows: the group's job object already
// terminates its processes if retry dies (see Start). Call release once
// the group's first process has been waited for: it closes the job and
// leaves whatever the attempt left running alone, as on Unix.
func (g *Group) Watch(time.Duration) (release func()) { return g.close }
