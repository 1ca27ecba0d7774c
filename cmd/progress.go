package cmd

import (
	"fmt"
	"io"
	"time"

	"github.com/b0a38808/retry/runner"
	"github.com/b0a38808/retry/runner/proc"
)

// progress prints one line per failed attempt and a final summary line
// on stderr. A first attempt that succeeds prints nothing.
type progress struct {
	w     io.Writer
	quiet bool
}

// AttemptStarted prints nothing: a line appears only when an attempt fails.
func (p *progress) AttemptStarted(*runner.Attempt, int) {}

// AttemptFinished prints the line of a failed attempt:
//
//	retry: attempt 1/3 failed after 0.21s: exit 1 (retryable: default: exit 1 may be transient); next attempt in 0.63s
func (p *progress) AttemptFinished(a *runner.Attempt, max int, retrying bool) {
	if p.quiet || a.Class.String() == "success" {
		return
	}
	line := fmt.Sprintf("retry: attempt %s failed after %s: %s (%s: %s)",
		attemptOf(a.Number, max), seconds(a.Duration), describe(a), a.Class, a.Reason)
	if retrying {
		line += "; next attempt in " + seconds(a.Delay)
	}
	if a.Stopped != "" {
		line += "; " + a.Stopped
	}
	fmt.Fprintln(p.w, line)
}

// summary prints the final line when more than one attempt ran or the
// operation failed.
func (p *progress) summary(res *runner.Result, code int) {
	if p.quiet || res.Outcome == runner.Succeeded && len(res.Attempts) <= 1 {
		return
	}
	n := len(res.Attempts)
	last := res.Last()
	switch res.Outcome {
	case runner.Succeeded:
		fmt.Fprintf(p.w, "retry: succeeded on attempt %d after %s\n", n, seconds(res.Elapsed))
	case runner.Cancelled:
		fmt.Fprintf(p.w, "retry: cancelled after %s in %s\n", plural(n, "attempt"), seconds(res.Elapsed))
	case runner.Deadline:
		fmt.Fprintf(p.w, "retry: gave up after %s in %s: deadline reached (exit %d)\n", plural(n, "attempt"), seconds(res.Elapsed), code)
	default:
		why := map[runner.Outcome]string{
			runner.Permanent: "permanent failure",
			runner.Exhausted: "attempts exhausted",
			runner.Budget:    "retry budget empty",
		}[res.Outcome]
		fmt.Fprintf(p.w, "retry: gave up after %s in %s: %s (%s)\n", plural(n, "attempt"), seconds(res.Elapsed), describe(last), why)
	}
}

// describe says how an attempt ended: "exit 1", "killed by SIGKILL",
// "timed out", "command not found".
func describe(a *runner.Attempt) string {
	switch {
	case a.StartErr != nil:
		return fmt.Sprintf("exit %d", a.ExitCode)
	case a.TimedOut:
		return "timed out"
	case a.Signal != 0:
		return "killed by " + proc.SignalName(a.Signal)
	}
	return fmt.Sprintf("exit %d", a.ExitCode)
}

// attemptOf renders "2/3", or "2" when attempts are unlimited.
func attemptOf(n, max int) string {
	if max == 0 {
		return fmt.Sprint(n)
	}
	return fmt.Sprintf("%d/%d", n, max)
}

// seconds renders d as seconds with two decimals, "0.21s"; a minute or
// more as a rounded duration, "2m3s".
func seconds(d time.Duration) string {
	if d >= time.Minute {
		return d.Round(time.Second).String()
	}
	return fmt.Sprintf("%.2fs", d.Seconds())
}

func plural(n int, word string) string {
	if n == 1 {
		return "1 " + word
	}
	return fmt.Sprintf("%d %ss", n, word)
}
