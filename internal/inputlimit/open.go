package inputlimit

import (
	"fmt"
	"time"
)

// FIFOWait bounds how long Open waits for a process to open a FIFO for
// writing: a FIFO that no writer opens within it is refused. A writer
// that has opened it is waited for as long as it takes to write (a
// kubectl get against a slow API server), as a pipe is.
const FIFOWait = 10 * time.Second

// NoWriterError is Open's error for a FIFO that no process opened for
// writing within Wait. Its text is a rule, to follow the path it refuses.
type NoWriterError struct {
	// Wait is how long Open waited.
	Wait time.Duration
}

// Error says what the FIFO is and what to do, as a rule to follow its
// path: "is a FIFO that no process opened for writing within 10s: ...".
func (e *NoWriterError) Error() string {
	return fmt.Sprintf("is a FIFO that no process opened for writing within %s: start its writer first, or give a pipe or a file", e.Wait)
}
