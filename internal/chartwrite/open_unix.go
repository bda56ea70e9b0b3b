//go:build unix

package chartwrite

import (
	"os"
	"syscall"
)

// openReadFlags open a file for reading without blocking: a FIFO swapped in
// after the Lstat opens at once (and is then refused) instead of hanging.
const openReadFlags = os.O_RDONLY | syscall.O_NONBLOCK
