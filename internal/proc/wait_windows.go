//go:build windows

package proc

import "github.com/b0a38808/retry/exitcodes"

// Wait waits for the group's first process to end and returns how it
// ended (the ExitCode and Signal of an exitcodes.Exit). A process that
// Signal terminated is reported as killed by the signal it was
// terminated for, as it would have died on Unix. Windows processes do not
// stop, so stopped is never called; reaped, when not nil, is called with
// the status once cmd.Wait has returned (it has released the output too).
func (g *Group) Wait(stopped func(), reaped func(exitcodes.Exit)) exitcodes.Exit {
	_ = g.cmd.Wait()
	st := exitOf(g.cmd.ProcessState)
	if sig := g.terminatedBy(); sig != 0 && st.ExitCode == terminatedCode {
		st = exitcodes.Exit{ExitCode: -1, Signal: sig}
	}
	if reaped != nil {
		reaped(st)
	}
	return st
}
