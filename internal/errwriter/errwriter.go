// Package errwriter keeps the first error of a series of writes, so that
// code writing many pieces (the plan's text, the command's output through
// cobra, which ignores write errors) checks once at the end.
package errwriter

import "io"

// Writer writes to an io.Writer until a write fails; it then skips the
// writes after it and returns that first error from each.
type Writer struct {
	w   io.Writer
	err error
}

// New returns a Writer to w.
func New(w io.Writer) *Writer { return &Writer{w: w} }

// Write writes p unless an earlier write failed.
func (e *Writer) Write(p []byte) (int, error) {
	if e.err != nil {
		return 0, e.err
	}
	n, err := e.w.Write(p)
	e.err = err
	return n, err
}

// Err is the first error a write returned, or nil.
func (e *Writer) Err() error { return e.err }
