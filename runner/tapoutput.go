package runner

import (
	"io"
	"os/exec"

	"github.com/b0a38808/retry/internal/stdio"
	"github.com/b0a38808/retry/runner/match"
)

// tapOutput puts a matcher between the attempt's watched streams and
// their destinations, when the rules read output; otherwise it leaves the
// streams alone, so that a terminal or a file reaches the command itself.
// Streams that are one (joined) go through one pipe, which the command
// writes both into, in order, and the matcher reads whatever Read says.
// The returned watch is told when the attempt's process has started (or
// could not), and when it has been reaped; its finish, called once the
// attempt has ended, waits for the rest of the output and returns what it
// showed.
func (r *run) tapOutput(cmd *exec.Cmd, joined bool) (*attemptOutput, error) {
	w := &attemptOutput{m: r.rules.NewMatcher(r.clock.Now)}
	if w.m == nil {
		return w, nil
	}
	watch := func(dst *io.Writer, name string) error {
		m := w.m.Writer(name)
		w.matchers = append(w.matchers, m)
		return w.tap.Add(dst, m)
	}
	var err error
	switch {
	case joined:
		err = watch(&cmd.Stdout, JoinedStream)
		cmd.Stderr = cmd.Stdout
	case r.rules.Read.Stdout():
		err = watch(&cmd.Stdout, "stdout")
	}
	if err == nil && !joined && r.rules.Read.Stderr() {
		err = watch(&cmd.Stderr, "stderr")
	}
	if err != nil {
		w.abort()
		return nil, err
	}
	return w, nil
}

// JoinedStream names stdout and stderr joined in one stream where a
// rule's match names the stream it was found on (match.Match.Stream).
const JoinedStream = "output"

// attemptOutput is the watched output of one attempt: its matcher, and the
// tap that shows the matcher the attempt's streams.
type attemptOutput struct {
	m        *match.Matcher // nil: nothing is watched
	matchers []io.Closer
	tap      stdio.Tap
}

func (w *attemptOutput) started() { w.tap.Started() }

func (w *attemptOutput) exited() { w.tap.Exited() }

// abort releases the streams of an attempt that did not start.
func (w *attemptOutput) abort() {
	w.tap.Abort()
	w.close()
}

// finish waits for the rest of the output and returns what it showed.
func (w *attemptOutput) finish() match.Output {
	w.tap.Wait()
	w.close()
	if w.m == nil {
		return match.Output{}
	}
	return w.m.Output()
}

func (w *attemptOutput) close() {
	for _, m := range w.matchers {
		_ = m.Close()
	}
	w.matchers = nil
}
