//go:build !unix

package hostilefs

import "io/fs"

// Mkfifo creates a FIFO (named pipe) at p.
func Mkfifo(p string) error { return ErrUnsupported }

// MknodNull creates a character device at p with /dev/null's numbers.
func MknodNull(p string) error { return ErrUnsupported }

func inode(fs.FileInfo) string { return "" }
