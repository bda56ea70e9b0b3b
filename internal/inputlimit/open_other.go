//go:build !unix

package inputlimit

import (
	"io"
	"os"
	"time"
)

// Open opens path for reading with os.Open: a system without FIFOs has
// no open that waits for a writer.
func Open(path string, _ time.Duration) (io.ReadCloser, error) {
	return os.Open(path)
}
