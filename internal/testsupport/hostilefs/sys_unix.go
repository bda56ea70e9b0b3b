//go:build unix

package hostilefs

import (
	"fmt"
	"io/fs"
	"syscall"
)

// Mkfifo creates a FIFO (named pipe) at p.
func Mkfifo(p string) error { return syscall.Mkfifo(p, 0o644) }

// MknodNull creates a character device at p with /dev/null's numbers; it
// needs privileges.
func MknodNull(p string) error { return syscall.Mknod(p, syscall.S_IFCHR|0o644, 1<<8|3) }

func inode(fi fs.FileInfo) string {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return fmt.Sprintf(" inode %d", st.Ino)
	}
	return ""
}
