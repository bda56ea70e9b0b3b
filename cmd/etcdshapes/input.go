package main

import (
	"errors"
	"fmt"
	"io"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/invalid"
)

// fifoWait bounds the wait for a FIFO's writer (inputlimit.FIFOWait; tests
// shorten it).
var fifoWait = inputlimit.FIFOWait

// readInput reads a values or live file ("-" is stdin) with the size
// limit of its kind: 16 MiB for a values file (values.MaxBytes), 64 MiB
// for a live file (plan.MaxBytes), --live's or --restore-from's (the
// EtcdSnapshots, read as --live is), far above any real one. -f /dev/zero,
// a 100 MB file or an endless stream ends with an error after reading at
// most one byte past the limit, in bounded memory. A FIFO is opened
// without waiting for a writer and refused when none opens it within
// fifoWait (inputlimit.Open), so that no input waits without end for a
// writer that never comes. The parsers bound the rest: a YAML document
// over values.MaxNodes or plan.MaxNodes is refused before it is parsed.
// flag names the flag for the error ("--values", "--live",
// "--restore-from").
func readInput(flag, path string, stdin io.Reader) ([]byte, error) {
	limits := inputlimit.Values
	if flag == "--live" || flag == "--restore-from" {
		limits = inputlimit.Live
	}
	var r io.Reader
	if path == "-" {
		r = stdin
	} else {
		f, err := inputlimit.Open(path, fifoWait)
		var noWriter *inputlimit.NoWriterError
		if errors.As(err, &noWriter) {
			return nil, invalid.Errorf(flag, path, "%v", noWriter)
		}
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, int64(limits.Bytes)+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if len(b) > limits.Bytes {
		return nil, invalid.Errorf(flag, path, "is larger than %d bytes (%d MiB), the limit for %s", limits.Bytes, limits.Bytes>>20, limits.What)
	}
	return b, nil
}
