//go:build unix && !linux

package inputlimit

import "time"

// waitReadable sleeps d: poll(2)'s report of a FIFO without a writer
// differs between systems, so only Linux's is read.
func waitReadable(_ int, d time.Duration) (hup bool) {
	time.Sleep(d)
	return false
}
