package stdio

import (
	"errors"
	"io"
)

// finalOutput holds each attempt's output in a holder of its own and
// writes out only the one Finish is called for. It serves one stream:
// Streams has one for stdout and one for stderr, each with its own
// destination and pattern.
type finalOutput struct {
	dst     io.Writer
	dir     string
	pattern string                                      // of the temporary files' names
	create  func(dir, pattern string) (heldFile, error) // nil: private temporary files
	cur     *holder                                     // the running attempt's
	held    *holder                                     // the attempt that ended last
}

func (o *finalOutput) begin() (io.Writer, error) {
	if err := o.drop(); err != nil {
		return nil, err
	}
	h, w, err := hold(o.dir, o.pattern, o.create)
	if err != nil {
		return nil, err
	}
	o.cur = h
	return w, nil
}

func (o *finalOutput) end() error {
	err := o.drop()
	if o.cur != nil {
		o.cur.end()
	}
	o.held, o.cur = o.cur, nil
	return err
}

// finish writes out the held output, whole or not at all.
func (o *finalOutput) finish() error {
	if o.held == nil {
		return nil
	}
	err := o.held.writeTo(o.dst)
	return errors.Join(err, o.drop())
}

// drop discards the held output.
func (o *finalOutput) drop() error {
	if o.held == nil {
		return nil
	}
	err := o.held.discard()
	o.held = nil
	return err
}

func (o *finalOutput) close() error {
	err := o.drop()
	if o.cur != nil {
		err = errors.Join(err, o.cur.discard())
		o.cur = nil
	}
	return err
}
