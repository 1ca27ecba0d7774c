package exitcodes

import "testing"

func TestFor(t *testing.T) {
	for _, tc := range []struct {
		name   string
		e      Ending
		code   Code
		signal int
	}{
		{"success", Ending{Succeeded: true, Ran: true}, 0, 0},
		{"gave up with the last code", Ending{Ran: true, Last: Exit{ExitCode: 3}}, 3, 0},
		{"exit 0 failed by --fail-if", Ending{Ran: true, Last: Exit{ExitCode: 0}}, 1, 0},
		{"not found", Ending{Ran: true, Last: Exit{ExitCode: 127}}, 127, 0},
		{"not executable", Ending{Ran: true, Last: Exit{ExitCode: 126}}, 126, 0},
		{"deadline", Ending{Deadline: true, Ran: true, Last: Exit{ExitCode: 1}}, 124, 0},
		{"deadline before any attempt", Ending{Deadline: true}, 124, 0},
		{"last attempt timed out", Ending{Ran: true, Last: Exit{TimedOut: true, Signal: 15}}, 124, 0},
		{"last attempt timed out, then exited 0", Ending{Ran: true, Last: Exit{TimedOut: true}}, 124, 0},
		{"a timed-out attempt taken for a success", Ending{Succeeded: true, Ran: true, Last: Exit{TimedOut: true}}, 124, 0},
		{"last attempt killed", Ending{Ran: true, Last: Exit{Signal: 9}}, 137, 9},
		{"cancelled during a wait", Ending{Cancelled: true, CancelSignal: 2, Ran: true, Last: Exit{ExitCode: 1}}, 130, 2},
		{"cancelled attempt died by the signal", Ending{Cancelled: true, Ran: true, Last: Exit{Signal: 15}}, 143, 15},
		{"cancelled attempt exited", Ending{Cancelled: true, Ran: true, Last: Exit{ExitCode: 3}}, 3, 0},
		{"cancelled attempt cut by stop signal", Ending{Cancelled: true, Ran: true, Last: Exit{Signal: 15, TimedOut: true}}, 143, 15},
		{"output gone", Ending{OutputGone: true, Cancelled: true, Ran: true, Last: Exit{Signal: 15}}, 141, 13},
		{"output gone after a success", Ending{OutputGone: true, Succeeded: true, Ran: true}, 141, 13},
		{"no run failed", Ending{Passed: true, Ran: true}, 0, 0},
		{"no run failed, the deadline cut the last", Ending{Passed: true, Ran: true, Last: Exit{TimedOut: true, Signal: 15}}, 0, 0},
		{"the failing run timed out", Ending{Ran: true, Last: Exit{TimedOut: true}}, 124, 0},
		{"output gone after no run failed", Ending{OutputGone: true, Passed: true, Ran: true}, 141, 13},
		{"flaky pass without --flaky-exit", Ending{Succeeded: true, Flaky: true, Ran: true}, 0, 0},
		{"flaky pass, --flaky-exit", Ending{Succeeded: true, Flaky: true, Ran: true, FlakyExit: 3}, 3, 0},
		{"first-attempt success, --flaky-exit", Ending{Succeeded: true, Ran: true, FlakyExit: 3}, 0, 0},
		{"flaky, but the attempt timed out", Ending{Succeeded: true, Flaky: true, Ran: true, Last: Exit{TimedOut: true}, FlakyExit: 3}, 124, 0},
		{"flaky, output gone", Ending{OutputGone: true, Succeeded: true, Flaky: true, Ran: true, FlakyExit: 3}, 141, 13},
		{"exhausted, --exhausted-exit", Ending{Exhausted: true, Ran: true, Last: Exit{ExitCode: 1}, ExhaustedExit: 75}, 75, 0},
		{"exhausted without --exhausted-exit", Ending{Exhausted: true, Ran: true, Last: Exit{ExitCode: 1}}, 1, 0},
		{"exhausted, last timed out", Ending{Exhausted: true, Ran: true, Last: Exit{TimedOut: true, Signal: 15}, ExhaustedExit: 75}, 75, 0},
		{"exhausted, last killed", Ending{Exhausted: true, Ran: true, Last: Exit{Signal: 9}, ExhaustedExit: 75}, 75, 0},
		{"permanent keeps its code", Ending{Ran: true, Last: Exit{ExitCode: 2}, ExhaustedExit: 75}, 2, 0},
		{"deadline beats --exhausted-exit", Ending{Deadline: true, Ran: true, Last: Exit{ExitCode: 1}, ExhaustedExit: 75}, 124, 0},
		{"cancel beats --exhausted-exit", Ending{Cancelled: true, CancelSignal: 2, Ran: true, Last: Exit{ExitCode: 1}, ExhaustedExit: 75}, 130, 2},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, sig := For(tc.e)
			if code != tc.code || sig != tc.signal {
				t.Errorf("For(%+v) = %d, %d; want %d, %d", tc.e, code, sig, tc.code, tc.signal)
			}
		})
	}
}
