// Package hostilefs helps tests put hostile things where a program expects
// plain files (FIFOs, devices, symbolic links, huge sparse files) and check
// that the program neither hung nor changed anything it must not touch.
// Only tests import it.
package hostilefs

import (
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"testing"
	"time"
)

// ErrUnsupported is returned by Mkfifo and Mknod where the platform has no
// such files; tests skip.
var ErrUnsupported = errors.ErrUnsupported

// Within fails the test when f does not return within d: opening a FIFO
// for reading blocks forever, and reading a huge file takes long.
func Within(t testing.TB, d time.Duration, f func()) {
	t.Helper()
	done := make(chan struct{})
	go func() {
		defer close(done)
		f()
	}()
	select {
	case <-done:
	case <-time.After(d):
		t.Fatalf("did not return within %v (blocked on a FIFO, or read a huge file?)", d)
	}
}

// Snapshot describes everything at and under dir without following a link
// or opening anything but a regular file: for each path its mode, inode
// (where the platform has one, so a replaced file shows), and its content
// or link target. A regular file above 1 MiB is described by its size.
func Snapshot(t testing.TB, dir string) map[string]string {
	t.Helper()
	snap := map[string]string{}
	err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		fi, err := os.Lstat(p)
		if err != nil {
			return err
		}
		desc := fmt.Sprintf("%v%s", fi.Mode(), inode(fi))
		switch {
		case fi.Mode()&fs.ModeSymlink != 0:
			target, _ := os.Readlink(p)
			desc += " -> " + target
		case fi.Mode().IsRegular() && fi.Size() > 1<<20:
			desc += fmt.Sprintf(" %d bytes", fi.Size())
		case fi.Mode().IsRegular():
			data, err := os.ReadFile(p)
			if err != nil {
				return err
			}
			desc += " " + string(data)
		}
		snap[p] = desc
		return nil
	})
	if err != nil {
		t.Fatalf("snapshot of %s: %v", dir, err)
	}
	return snap
}

// Huge creates p as a sparse file of size bytes, instantly; reading it
// would not finish in a test's time. It skips the test where the file
// system cannot.
func Huge(t testing.TB, p string, size int64) {
	t.Helper()
	f, err := os.Create(p)
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	if err := f.Truncate(size); err != nil {
		t.Skipf("sparse file: %v", err)
	}
}
