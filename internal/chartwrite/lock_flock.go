//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || illumos

package chartwrite

import (
	"errors"
	"os"
	"syscall"
)

// haveLock: this platform has flock(2).
const haveLock = true

// lockOpenFlags open the lock file without blocking: a FIFO swapped in
// after the Lstat opens at once (and is then refused) instead of hanging.
const lockOpenFlags = syscall.O_NONBLOCK

// lockFile takes an exclusive flock on f without waiting: errBusy when
// another open file description holds it (another process, or another
// Write in this one).
func lockFile(f *os.File) error {
	c, err := f.SyscallConn()
	if err != nil {
		return err
	}
	var ferr error
	if err := c.Control(func(fd uintptr) {
		for {
			ferr = syscall.Flock(int(fd), syscall.LOCK_EX|syscall.LOCK_NB)
			if !errors.Is(ferr, syscall.EINTR) {
				return
			}
		}
	}); err != nil {
		return err
	}
	if errors.Is(ferr, syscall.EWOULDBLOCK) {
		return errBusy
	}
	return ferr
}
