//go:build unix

package inputlimit

import (
	"bytes"
	"io"
	"os"
	"syscall"
	"time"
)

// Open opens path for reading as os.Open does, without ever waiting in
// open(2): a FIFO (a named pipe made by mkfifo) is opened without waiting
// for a writer, which open(2) would do without end, and is then waited
// for until a process opens it for writing, at most wait; after that it is
// read like a pipe, to its writer's end. A FIFO without a writer after
// wait is a *NoWriterError. An anonymous pipe (/dev/fd/N, as a shell's
// process substitution gives) is a FIFO whose writer is there from the
// start, or has been (on Linux its end is seen at once; elsewhere an empty
// one whose writer has gone waits, as a FIFO whose writer came and went
// without writing does). Every other file (a regular file, a device) is
// read as os.Open reads it.
func Open(path string, wait time.Duration) (io.ReadCloser, error) {
	var fd int
	var err error
	for {
		fd, err = syscall.Open(path, syscall.O_RDONLY|syscall.O_NONBLOCK|syscall.O_CLOEXEC, 0)
		if err != syscall.EINTR {
			break
		}
	}
	if err != nil {
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	var st syscall.Stat_t
	if err := syscall.Fstat(fd, &st); err != nil {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "stat", Path: path, Err: err}
	}
	var head []byte
	if st.Mode&syscall.S_IFMT == syscall.S_IFIFO {
		if head, err = waitWriter(fd, wait); err != nil {
			syscall.Close(fd)
			return nil, err
		}
	}
	// Blocking reads from here on, as os.Open's of a regular file or a
	// device: a writer is there (or has been) and is read to its end.
	if err := syscall.SetNonblock(fd, false); err != nil {
		syscall.Close(fd)
		return nil, &os.PathError{Op: "open", Path: path, Err: err}
	}
	f := os.NewFile(uintptr(fd), path)
	if len(head) == 0 {
		return f, nil
	}
	return &prefixed{io.MultiReader(bytes.NewReader(head), f), f}, nil
}

// prefixed is a file read after the bytes read from it while waiting.
type prefixed struct {
	io.Reader
	f *os.File
}

func (p *prefixed) Close() error { return p.f.Close() }

// waitStep is how long one look for a writer waits.
const waitStep = 20 * time.Millisecond

// waitWriter waits until a process has opened the FIFO fd (opened
// O_NONBLOCK) for writing, at most wait, and returns what it read
// meanwhile. A read of the non-blocking FIFO says whether a writer is
// there: data, or EAGAIN (a writer that has not written yet); with no
// writer it reads 0 bytes, like the end of a file, whether none came yet
// or one came and went without writing. Where poll(2) tells these apart
// (Linux: POLLHUP only once a writer has come and gone), a writer that
// came and went is its end; elsewhere it is missed and waited for.
func waitWriter(fd int, wait time.Duration) ([]byte, error) {
	deadline := time.Now().Add(wait)
	buf := make([]byte, 4096)
	for {
		left := time.Until(deadline)
		hup := false
		if left > 0 {
			hup = waitReadable(fd, min(left, waitStep))
		}
		n, err := syscall.Read(fd, buf)
		switch {
		case n > 0:
			return buf[:n], nil
		case err == syscall.EAGAIN:
			return nil, nil
		case err == syscall.EINTR:
		case err != nil:
			return nil, err
		case hup:
			return nil, nil // a writer came and went, writing nothing: an empty file
		}
		if left <= 0 {
			return nil, &NoWriterError{wait}
		}
	}
}
