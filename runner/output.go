package runner

import (
	"io"
	"os/exec"
	"sync"

	"github.com/b0a38808/retry/runner/classify"
)

// teeBuffer is the size of the reads from an attempt's watched pipe: the
// pipe's capacity and then some, so a busy stream costs few system calls.
const teeBuffer = 128 << 10

// watchOutput puts a matcher between the attempt's watched streams and
// their destinations, when the rules read output; otherwise it leaves the
// streams alone, so that a terminal or a file reaches the command itself.
// The returned watch is told when the attempt's process has started (or
// could not), and when it has been reaped; its finish, called once the
// attempt has ended, waits for the rest of the output and returns what it
// showed.
func (r *run) watchOutput(cmd *exec.Cmd) (*outputWatch, error) {
	w := &outputWatch{m: r.rules.NewMatcher(r.clock.Now)}
	if w.m == nil {
		return w, nil
	}
	watch := func(dst *io.Writer, name string) error {
		m := w.m.Writer(name)
		w.matchers = append(w.matchers, m)
		s, err := watchStream(dst, m, &w.relays)
		if err != nil {
			return err
		}
		w.streams = append(w.streams, s)
		return nil
	}
	var err error
	if r.rules.Match.Stdout() {
		err = watch(&cmd.Stdout, "stdout")
	}
	if err == nil && r.rules.Match.Stderr() {
		err = watch(&cmd.Stderr, "stderr")
	}
	if err != nil {
		w.abort()
		return nil, err
	}
	return w, nil
}

// outputWatch is the watched output of one attempt.
type outputWatch struct {
	m        *classify.Matcher // nil: nothing is watched
	matchers []io.Closer
	streams  []stream
	relays   sync.Mutex
}

// stream is one watched stream of an attempt on its way to its
// destination.
type stream interface {
	// started: the attempt's process runs.
	started()
	// exited: the process has been reaped; what is left to read is
	// bounded from now on (pipeGrace).
	exited()
	// wait returns once the stream is done.
	wait()
	// abort: the process did not start.
	abort()
}

func (w *outputWatch) started() {
	for _, s := range w.streams {
		s.started()
	}
}

func (w *outputWatch) exited() {
	for _, s := range w.streams {
		s.exited()
	}
}

// abort releases the streams of an attempt that did not start.
func (w *outputWatch) abort() {
	for _, s := range w.streams {
		s.abort()
	}
	w.close()
}

// finish waits for the rest of the output and returns what it showed.
func (w *outputWatch) finish() classify.Output {
	for _, s := range w.streams {
		s.wait()
	}
	w.close()
	if w.m == nil {
		return classify.Output{}
	}
	return w.m.Output()
}

func (w *outputWatch) close() {
	for _, m := range w.matchers {
		_ = m.Close()
	}
	w.matchers = nil
}

// tee passes a stream on to dst, byte for byte, and shows what dst took
// to the matcher m, whose writes never fail.
type tee struct {
	dst io.Writer
	m   io.Writer
}

// Write writes p to dst, then what dst took to the matcher.
func (t *tee) Write(p []byte) (int, error) {
	n, err := t.dst.Write(p)
	_, _ = t.m.Write(p[:n])
	return n, err
}

// ReadFrom copies r through Write with a buffer larger than io.Copy's.
func (t *tee) ReadFrom(r io.Reader) (int64, error) {
	buf := make([]byte, teeBuffer)
	var total int64
	for {
		n, err := r.Read(buf)
		if n > 0 {
			w, werr := t.Write(buf[:n])
			total += int64(w)
			if werr != nil {
				return total, werr
			}
		}
		if err == io.EOF {
			return total, nil
		}
		if err != nil {
			return total, err
		}
	}
}

// ReaderGone reports whether w is a pipe or socket whose reading end has
// closed, or a terminal that has hung up: nothing reads what is written
// there any more. It is false for any other writer, and on Windows.
func ReaderGone(w io.Writer) bool { return readerGone(w) }
