package runner

import (
	"io"
	"os/exec"

	"github.com/b0a38808/retry/runner/classify"
)

// teeBuffer is the size of the reads from an attempt's watched pipe: the
// pipe's capacity and then some, so a busy stream costs few system calls.
const teeBuffer = 128 << 10

// watchOutput puts a matcher between the attempt's watched streams and
// their destinations, when the rules read output; otherwise it leaves the
// streams alone, so that a terminal or a file reaches the command itself.
// Writes to the destinations are queued (queuedWriter), so that the copy
// from the attempt's pipe keeps up with the attempt even when the
// destination is slow. finish, called once the attempt has been waited
// for, writes out what is queued and returns what the output showed.
func (r *run) watchOutput(cmd *exec.Cmd) (finish func() classify.Output) {
	m := r.rules.NewMatcher(r.clock.Now)
	if m == nil {
		return func() classify.Output { return classify.Output{} }
	}
	var closers []io.Closer
	watch := func(dst *io.Writer, name string) {
		w := m.Writer(name)
		q := newQueuedWriter(*dst)
		*dst = &tee{dst: q, m: w}
		closers = append(closers, q, w)
	}
	if r.rules.Match.Stdout() {
		watch(&cmd.Stdout, "stdout")
	}
	if r.rules.Match.Stderr() {
		watch(&cmd.Stderr, "stderr")
	}
	return func() classify.Output {
		for _, c := range closers {
			_ = c.Close()
		}
		return m.Output()
	}
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
