package stdio

import (
	"errors"
	"io"
	"math"
)

// finalOutput holds each attempt's output in a temporary file of its own
// (a straggling grandchild of one attempt cannot write into the next
// attempt's file) and writes out only the one Finish is called for.
type finalOutput struct {
	dst  io.Writer
	dir  string
	cur  *tempFile // the running attempt's
	held *tempFile // the attempt that ended last
}

func (o *finalOutput) begin() (io.Writer, error) {
	if err := o.drop(); err != nil {
		return nil, err
	}
	f, err := createTemp(o.dir, "retry-stdout-*")
	if err != nil {
		return nil, err
	}
	o.cur = f
	return f.File, nil
}

func (o *finalOutput) end() error {
	err := o.drop()
	o.held, o.cur = o.cur, nil
	return err
}

// finish copies the held output. It reads at explicit offsets, leaving the
// file offset the attempt's processes share alone.
func (o *finalOutput) finish() error {
	if o.held == nil {
		return nil
	}
	_, err := io.Copy(o.dst, io.NewSectionReader(o.held, 0, math.MaxInt64))
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
