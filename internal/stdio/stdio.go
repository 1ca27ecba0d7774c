// Package stdio carries every byte between an attempt and retry's own
// descriptors, so that retrying neither loses nor mixes bytes: every
// attempt can read the same input from the start, with OutputFinal only
// the last attempt's output reaches the real stdout (or stderr), and a
// Tap shows the streams the classification reads to a matcher on their
// way out. It is internal: other Go programs cannot import it.
//
// The runner drives it in this order, once per attempt:
//
//	s, err := stdio.Open(cfg) // once, before the first attempt
//	defer s.Close()
//	a, err := s.Begin()       // stdin, stdout and stderr for the attempt
//	... run the attempt with a.Stdin, a.Stdout and a.Stderr ...
//	err = s.End()             // the attempt's process has ended
//	... decide; if no other attempt will start (also when cancelled
//	    during the wait that follows): err = s.Finish()
//
// Begin of the next attempt discards what the previous one wrote; Finish
// writes out the output of the attempt that ended last. The package starts
// no process and prints nothing; its temporary files are private (0600) and
// removed on every exit path (on Unix they are unlinked as soon as they are
// created).
package stdio

import (
	"errors"
	"fmt"
	"io"
	"os"
)

// StdinMode says what each attempt reads as its standard input.
type StdinMode int

const (
	// StdinReplay gives every attempt the same bytes from the start: a
	// regular file is re-read from the offset where it was found, anything
	// else (a pipe, a socket) is spooled to a temporary file as the first
	// attempt reads it. If that file cannot be written, the running
	// attempt still reads the whole input, and Begin refuses the next.
	StdinReplay StdinMode = iota
	// StdinInherit hands retry's own stdin to every attempt: what one
	// attempt consumed, the next does not see.
	StdinInherit
	// StdinNull gives every attempt the null device.
	StdinNull
)

// OutputMode says where each attempt's standard output goes; the same
// modes apply to its standard error (Config.StderrMode).
type OutputMode int

const (
	// OutputStream passes every attempt's output through as it is written.
	OutputStream OutputMode = iota
	// OutputFinal holds each attempt's output in a temporary file and
	// writes out only the last attempt's (see Streams.Finish). retry
	// writes that file itself, from a pipe the attempt writes into, so
	// that the command never sees a failure to hold its output; output
	// that could not be held whole is never written out (ErrOutputLost).
	OutputFinal
)

var stdinModes = []string{StdinReplay: "replay", StdinInherit: "inherit", StdinNull: "null"}

var outputModes = []string{OutputStream: "stream", OutputFinal: "final"}

// String returns the mode's flag value: replay, inherit or null.
func (m StdinMode) String() string { return modeName(stdinModes, int(m)) }

// String returns the mode's flag value: stream or final.
func (m OutputMode) String() string { return modeName(outputModes, int(m)) }

func modeName(names []string, i int) string {
	if i < 0 || i >= len(names) {
		return fmt.Sprintf("mode(%d)", i)
	}
	return names[i]
}

// ParseStdinMode parses a --stdin value: replay, inherit or null.
func ParseStdinMode(s string) (StdinMode, error) {
	i, err := parseMode(stdinModes, s)
	return StdinMode(i), err
}

// ParseOutputMode parses a --stdout or --stderr value: stream or final.
func ParseOutputMode(s string) (OutputMode, error) {
	i, err := parseMode(outputModes, s)
	return OutputMode(i), err
}

func parseMode(names []string, s string) (int, error) {
	for i, n := range names {
		if s == n {
			return i, nil
		}
	}
	return 0, fmt.Errorf("must be one of %s, got %q", joinOr(names), s)
}

func joinOr(names []string) string {
	out := ""
	for i, n := range names {
		switch {
		case i == 0:
		case i == len(names)-1:
			out += " or "
		default:
			out += ", "
		}
		out += n
	}
	return out
}

// Config says where the input comes from, where the output goes, and how
// both behave across attempts.
type Config struct {
	// Stdin is the input retry was given; nil reads as the null device.
	Stdin *os.File
	// StdinMode applies to Stdin.
	StdinMode StdinMode
	// Stdout receives the attempts' output; nil writes to the null device.
	Stdout io.Writer
	// StdoutMode applies to Stdout.
	StdoutMode OutputMode
	// Stderr receives the attempts' error output; nil writes to the null
	// device.
	Stderr io.Writer
	// StderrMode applies to Stderr, as StdoutMode to Stdout.
	StderrMode OutputMode
	// TempDir holds the temporary files; empty means os.TempDir().
	TempDir string
}

// IO is what one attempt reads and writes. All are always non-nil;
// Stdin is a real file, so starting a process needs no copying goroutine.
// Stdout and Stderr are real files too (in OutputFinal mode, a pipe that
// retry reads; on Windows a writer that os/exec carries), unless
// Config.Stdout or Config.Stderr was another writer in OutputStream mode.
type IO struct {
	Stdin  *os.File
	Stdout io.Writer
	Stderr io.Writer
	// Joined: Config.Stdout and Config.Stderr are one stream
	// (OneStream), and Stdout and Stderr are the same writer, so that
	// the attempt's lines keep the order it wrote them in.
	Joined bool
}

// Streams hands out each attempt's stdin, stdout and stderr. Its methods are
// meant to be called from one goroutine, in the order the package
// documentation shows.
type Streams struct {
	in      input
	out     output
	errOut  output // nil when joined: out serves both
	running bool
}

// input is one StdinMode's way to give each attempt its stdin.
type input interface {
	begin() (*os.File, error)
	end() error
	close() error
	// replayable says why another attempt could not get its input; nil
	// when it can.
	replayable() error
}

// output is one OutputMode's way to give each attempt its stdout (or
// stderr).
// finish fails, writing nothing, with an error wrapping ErrOutputLost
// when the output it held is not whole.
type output interface {
	begin() (io.Writer, error)
	end() error
	finish() error
	close() error
}

// Open prepares the attempts' input and output; for a spooled stdin it
// already creates the temporary file, so a TempDir that cannot hold it is
// reported before any attempt starts.
//
// When Config.Stdout and Config.Stderr are one stream (OneStream), each
// attempt writes both into one writer, and OutputFinal in either mode
// holds that joined stream: only the last attempt's output goes out, its
// two streams in the order it wrote them.
func Open(cfg Config) (*Streams, error) {
	dir := cfg.TempDir
	if dir == "" {
		dir = os.TempDir()
	}
	in, err := openInput(cfg.Stdin, cfg.StdinMode, dir)
	if err != nil {
		return nil, &StreamError{Stream: "stdin", Err: err}
	}
	if OneStream(cfg.Stdout, cfg.Stderr) {
		mode := max(cfg.StdoutMode, cfg.StderrMode) // OutputFinal when either is
		out, err := openOutput(cfg.Stdout, mode, dir, "retry-output-*")
		if err != nil {
			in.close()
			return nil, &StreamError{Stream: joinedName, Err: err}
		}
		return &Streams{in: in, out: out}, nil
	}
	out, err := openOutput(cfg.Stdout, cfg.StdoutMode, dir, "retry-stdout-*")
	if err != nil {
		in.close()
		return nil, &StreamError{Stream: "stdout", Err: err}
	}
	errOut, err := openOutput(cfg.Stderr, cfg.StderrMode, dir, "retry-stderr-*")
	if err != nil {
		in.close()
		out.close()
		return nil, &StreamError{Stream: "stderr", Err: err}
	}
	return &Streams{in: in, out: out, errOut: errOut}, nil
}

// joinedName names stdout and stderr joined in one stream, in a
// StreamError.
const joinedName = "stdout and stderr"

// outName names out's stream in a StreamError.
func (s *Streams) outName() string {
	if s.errOut == nil {
		return joinedName
	}
	return "stdout"
}

// openOutput returns one stream's output to dst in mode; pattern names
// its held files.
func openOutput(dst io.Writer, mode OutputMode, dir, pattern string) (output, error) {
	if dst == nil {
		dst = io.Discard
	}
	switch mode {
	case OutputStream:
		return openStream(dst)
	case OutputFinal:
		return &finalOutput{dst: dst, dir: dir, pattern: pattern}, nil
	}
	return nil, fmt.Errorf("unknown %v", mode)
}

// Begin returns the next attempt's stdin, stdout and stderr. With
// OutputFinal it discards the output of the attempt before. It fails when a spooled stdin
// could not be copied in full: the attempt would read only part of it.
func (s *Streams) Begin() (IO, error) {
	if s.running {
		return IO{}, errors.New("stdio: Begin called twice without End")
	}
	in, err := s.in.begin()
	if err != nil {
		return IO{}, &StreamError{Stream: "stdin", Err: err}
	}
	out, err := s.out.begin()
	if err != nil {
		s.in.end()
		return IO{}, &StreamError{Stream: s.outName(), Err: err}
	}
	if s.errOut == nil {
		s.running = true
		return IO{Stdin: in, Stdout: out, Stderr: out, Joined: true}, nil
	}
	errOut, err := s.errOut.begin()
	if err != nil {
		s.in.end()
		s.out.end()
		return IO{}, &StreamError{Stream: "stderr", Err: err}
	}
	s.running = true
	return IO{Stdin: in, Stdout: out, Stderr: errOut}, nil
}

// End tells that the attempt's process has ended. It stops feeding the
// attempt's stdin at once, without waiting for the end of retry's own
// stdin, and keeps the attempt's held output for Finish. Call it also when
// the attempt could not start.
func (s *Streams) End() error {
	if !s.running {
		return nil
	}
	s.running = false
	inErr := s.in.end()
	outErr := s.out.end()
	errErr := s.onStderr(output.end)
	if inErr != nil {
		return &StreamError{Stream: "stdin", Err: inErr}
	}
	if outErr != nil {
		return &StreamError{Stream: s.outName(), Err: outErr}
	}
	if errErr != nil {
		return &StreamError{Stream: "stderr", Err: errErr}
	}
	return nil
}

// Replayable reports why another attempt could not be given its input,
// or nil when it can: a spool that could not be written (a full TMPDIR)
// lacks what the last attempt read since. The runner asks before it waits
// to retry, so that the operation fails at once rather than after the
// wait; Begin refuses such an attempt all the same.
func (s *Streams) Replayable() error {
	if err := s.in.replayable(); err != nil {
		return &StreamError{Stream: "stdin", Err: err}
	}
	return nil
}

// Finish tells that no other attempt will start: with OutputFinal the
// output of the attempt that ended last is written to Config.Stdout, then
// its error output to Config.Stderr, each whole or not at all. A running
// attempt is ended first. When both fail, the error is stdout's.
func (s *Streams) Finish() error {
	endErr := s.End()
	outErr := s.out.finish()
	errErr := s.onStderr(output.finish)
	if outErr != nil {
		return &StreamError{Stream: s.outName(), Err: outErr}
	}
	if errErr != nil {
		return &StreamError{Stream: "stderr", Err: errErr}
	}
	return endErr
}

// Close releases the temporary files. It writes nothing out: call Finish
// first for that. Close never waits for retry's own stdin.
func (s *Streams) Close() error {
	s.End()
	return errors.Join(s.in.close(), s.out.close(), s.onStderr(output.close))
}

// onStderr calls f on stderr's output, unless stdout's serves both.
func (s *Streams) onStderr(f func(output) error) error {
	if s.errOut == nil {
		return nil
	}
	return f(s.errOut)
}

// streamOutput passes every attempt's output straight through.
type streamOutput struct {
	w    io.Writer
	null *os.File // opened when the output is discarded, so exec needs no copying
}

func openStream(w io.Writer) (*streamOutput, error) {
	if w != io.Discard {
		return &streamOutput{w: w}, nil
	}
	null, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		return nil, err
	}
	return &streamOutput{w: null, null: null}, nil
}

func (o *streamOutput) begin() (io.Writer, error) { return o.w, nil }
func (o *streamOutput) end() error                { return nil }
func (o *streamOutput) finish() error             { return nil }

func (o *streamOutput) close() error {
	if o.null == nil {
		return nil
	}
	return o.null.Close()
}
