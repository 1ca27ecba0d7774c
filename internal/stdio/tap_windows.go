//go:build windows

package stdio

import (
	"io"
	"sync"
)

// execStream is a watched stream left to os/exec, which copies it from
// the process's pipe through the matcher's tee and closes the pipe
// cmd.WaitDelay after the process exits. Windows pipes take no read
// deadline, which the Unix pipeStream needs.
type execStream struct{}

// watchStream makes *dst, the destination of one of the attempt's
// streams, a tee to the old destination and to m.
func watchStream(dst *io.Writer, m io.Writer, _ *sync.Mutex) (stream, error) {
	*dst = &tee{dst: *dst, m: m}
	return execStream{}, nil
}

func (execStream) carry()   {}
func (execStream) started() {}
func (execStream) exited()  {}
func (execStream) wait()    {}
func (execStream) abort()   {}
