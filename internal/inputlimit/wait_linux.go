package inputlimit

import (
	"time"

	"golang.org/x/sys/unix"
)

// waitReadable waits up to d for the FIFO fd to be readable and reports
// whether a writer came and went (POLLHUP): Linux reports it on a FIFO
// opened O_NONBLOCK only once a writer has opened it since.
func waitReadable(fd int, d time.Duration) (hup bool) {
	fds := []unix.PollFd{{Fd: int32(fd), Events: unix.POLLIN}}
	n, err := unix.Poll(fds, int(d.Milliseconds()))
	return err == nil && n > 0 && fds[0].Revents&unix.POLLHUP != 0
}
