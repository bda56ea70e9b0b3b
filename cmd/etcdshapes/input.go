package main

import (
	"fmt"
	"io"
	"os"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
)

// readInput reads a values or live file ("-" is stdin) with a size limit
// of etcdshapes.MaxValuesBytes (16 MiB), far above any real values file or
// stack: -f /dev/zero, a 100 MB file or an endless stream ends with an
// error after reading at most one byte past the limit, in bounded memory.
// The parsers bound the rest: a YAML document over
// etcdshapes.MaxValuesIndicators is refused before it is parsed.
// flag names the flag for the error ("--values", "--live").
func readInput(flag, path string, stdin io.Reader) ([]byte, error) {
	var r io.Reader
	if path == "-" {
		r = stdin
	} else {
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("%s: %w", flag, err)
		}
		defer f.Close()
		r = f
	}
	b, err := io.ReadAll(io.LimitReader(r, etcdshapes.MaxValuesBytes+1))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if len(b) > etcdshapes.MaxValuesBytes {
		return nil, naming.Errorf(flag, path, "is larger than %d bytes (16 MiB), the limit for a values or live file", etcdshapes.MaxValuesBytes)
	}
	return b, nil
}
