//go:build !unix

package chartwrite

import "os"

// openReadFlags open a file for reading; platforms without FIFOs need no
// O_NONBLOCK.
const openReadFlags = os.O_RDONLY
