// Package exitcodes is retry's exit-status contract: how an attempt ended
// (Exit), the statuses retry can end with, and the one table that chooses
// among them. It is API: other Go programs may import it.
//
//	0        an attempt succeeded; or, running until a failure (--until
//	         fail), no run failed
//	N        gave up (permanent failure, attempts exhausted, budget empty):
//	         the last attempt's own exit status
//	1        the last attempt exited 0 but --fail-if matched its output
//	124      the deadline or the last attempt's timeout ended the operation
//	         (also when the timed-out attempt exited 0)
//	125      retry itself failed: bad flags or values, internal error
//	126      the command is not executable, or the last attempt could
//	         not start it for the moment (text file busy)
//	127      the command is not found
//	128+N    cancelled by signal N, or the last attempt died from signal N;
//	         retry then dies by signal N itself (141, SIGPIPE, also when
//	         retry's own output lost its reader)
//	E        --exhausted-exit E: the attempts or the budget ran out on a
//	         retryable failure (ahead of the rows below 124)
//	F        --flaky-exit F: an attempt succeeded after a failed one
//	         (ahead of 0)
//
// Which wins: a cancel (128+N), then the deadline (124), then E, then F,
// then the rest of the table. Bad input (125) never reaches For.
package exitcodes

import "syscall"

// Code is an exit status of retry.
type Code int

// The fixed exit statuses. Others are the last attempt's own status or
// SignalBase plus a signal number.
const (
	// OK: an attempt succeeded.
	OK Code = 0
	// FailIf: the last attempt exited 0, but --fail-if matched its
	// output, so the operation failed.
	FailIf Code = 1
	// Timeout: the deadline or the last attempt's timeout ended the
	// operation, as with timeout(1).
	Timeout Code = 124
	// Failed: retry itself failed (bad flags or values, internal error);
	// when it comes from bad input, the command was never run.
	Failed Code = 125
	// CannotExecute: the command was found but could not be executed.
	CannotExecute Code = 126
	// NotFound: the command was not found.
	NotFound Code = 127
	// SignalBase plus N reports a death by signal N.
	SignalBase Code = 128
)

// Exit is how one attempt ended: what waiting for its process found, what
// the classification reads, and what the exit status is chosen from.
type Exit struct {
	// StartErr is why the command could not be started, if it could not;
	// ExitCode is then CannotExecute or NotFound.
	StartErr error
	// ExitCode is the exit status when Signal is 0 (-1 when the process
	// died from a signal).
	ExitCode int
	// Signal is the signal the attempt died from, 0 when it exited.
	Signal syscall.Signal
	// SignalSent: retry sent Signal to the attempt, or forwarded it (a
	// signal a user sent to retry), so the death is no mystery.
	SignalSent bool
	// TimedOut: the attempt was cut by its own timeout or by the deadline.
	TimedOut bool
}

// Ending is how an operation ended.
type Ending struct {
	Succeeded bool
	// Passed: the operation ran until a failure (--until fail) and none
	// came, whatever the last run, which the deadline may have cut.
	// A run that failed ends it as a last attempt does.
	Passed bool
	// Deadline: the deadline ended the operation, during an attempt or
	// because the next wait would have passed it.
	Deadline bool
	// Cancelled: a signal cancelled the operation. CancelSignal is that
	// signal when no attempt was running, so retry ends by it at once.
	Cancelled    bool
	CancelSignal int
	// OutputGone: retry's own stdout or stderr lost its reader while the
	// operation ran; retry ends as the write that found no reader would
	// have ended it, by SIGPIPE.
	OutputGone bool
	// Ran: at least one attempt ran; Last describes the last one.
	Ran  bool
	Last Exit
	// Exhausted: the attempts or the retry budget ran out on a retryable
	// failure (not a permanent one), after at least one attempt.
	Exhausted bool
	// Flaky: an attempt succeeded after at least one that failed.
	Flaky bool
	// ExhaustedExit and FlakyExit are --exhausted-exit and --flaky-exit,
	// the statuses of those two endings; 0 when the flag is not given.
	ExhaustedExit Code
	FlakyExit     Code
}

// MinChosen and MaxChosen bound the statuses a user may choose for an
// ending (--flaky-exit, --exhausted-exit): above 0, and below the
// statuses that mean the deadline, retry's own failure, a command that
// cannot run, or a signal.
const (
	MinChosen Code = 1
	MaxChosen Code = 123
)

// For returns the exit status for e, and the signal retry must die by to
// report it (0 when it exits normally). This is the one place where an
// outcome becomes an exit status.
func For(e Ending) (Code, int) {
	switch {
	case e.OutputGone:
		return SignalBase + Code(syscall.SIGPIPE), int(syscall.SIGPIPE)
	case e.Passed:
		return OK, 0
	case e.Succeeded && !e.Last.TimedOut:
		// An attempt cut by its timeout never succeeded, whatever it
		// exited with: it ends below with 124.
		if e.Flaky && e.FlakyExit != 0 {
			return e.FlakyExit, 0
		}
		return OK, 0
	case e.Deadline:
		return Timeout, 0
	case e.Cancelled && (e.CancelSignal != 0 || !e.Ran):
		return SignalBase + Code(e.CancelSignal), e.CancelSignal
	case !e.Ran:
		return Failed, 0
	case e.Exhausted && e.ExhaustedExit != 0 && !e.Cancelled:
		// Ahead of the last attempt's own ending, a timeout or a signal
		// included: the CI's own retry reads this one status.
		return e.ExhaustedExit, 0
	case e.Last.TimedOut && !e.Cancelled:
		return Timeout, 0
	case e.Last.Signal != 0:
		return SignalBase + Code(e.Last.Signal), int(e.Last.Signal)
	case e.Last.ExitCode == 0:
		// It exited 0 and still did not succeed: its output failed it.
		return FailIf, 0
	}
	return Code(e.Last.ExitCode), 0
}
