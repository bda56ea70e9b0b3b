package chartwrite

import (
	"errors"
	"io/fs"
	"os"
	"time"

	"github.com/etcdshapes/etcdshapes/invalid"
)

// LockName is the lock file Write holds in the directory while it writes:
// two runs into one directory at once (two `gen chart`, two `render
// --output-dir`, a build running generators in parallel) would otherwise
// each read the manifest, write their files, and the manifest written last
// would disagree with the files written last, so that every later run
// refuses them as "edited since". The file exists only while a Write holds
// it: it is removed before the lock is released.
const LockName = ".etcdshapes-lock"

// DefaultLockWait is how long Write waits for another Write to release the
// directory's lock before it gives up with an error (Options.LockWait).
// The CLI's help says "30 seconds" (TestGenHelpSaysTheLockWait).
const DefaultLockWait = 30 * time.Second

// lockPoll bounds the interval at which a waiting Write tries the lock
// again.
const lockPoll = 100 * time.Millisecond

// errBusy: another holder has the lock (flock's EWOULDBLOCK).
var errBusy = errors.New("lock held")

// dirLock is the lock Write holds on its directory.
type dirLock struct {
	w *writer
	f *os.File // nil where the platform has no lock (lockFile)
}

// lock takes the directory's lock, waiting at most the options' LockWait.
// The lock file is refused, never opened, unless it is absent or an empty
// regular file: a symbolic link, a FIFO, a device, a directory or a file
// with content is not etcdshapes' lock, and is left alone.
//
// The file is removed by its holder before it is released (unlock), so a
// waiter may end up holding a file that is no longer the one at LockName:
// it checks after every acquisition that the file it holds is still there,
// and starts again when not. Locks are advisory (flock): they order
// etcdshapes runs, nothing else.
func (w *writer) lock() (*dirLock, error) {
	wait := w.o.LockWait
	if wait == 0 {
		wait = DefaultLockWait
	}
	deadline := time.Now().Add(wait)
	poll := 5 * time.Millisecond
	for {
		f, err := w.openLock()
		if err != nil {
			return nil, err
		}
		if f == nil { // no lock on this platform
			return &dirLock{w: w}, nil
		}
		err = lockFile(f)
		if err == nil {
			held, err := w.stillLockFile(f)
			if err != nil {
				f.Close()
				return nil, err
			}
			if held {
				return &dirLock{w: w, f: f}, nil
			}
			// The previous holder removed it before releasing it: take
			// the new one.
			f.Close()
			continue
		}
		f.Close()
		if !errors.Is(err, errBusy) {
			return nil, invalid.Errorf(Field, w.full(LockName), "cannot be locked: %v; etcdshapes locks it so that two runs never write %s at once", err, w.dir)
		}
		if !time.Now().Before(deadline) {
			return nil, invalid.Errorf(Field, w.full(LockName), "is locked by another process, most likely another etcdshapes writing %s (waited %s): run again when it is done", w.dir, wait)
		}
		t := time.NewTimer(min(poll, time.Until(deadline)+time.Millisecond))
		select {
		case <-t.C:
		case <-w.ctx.Done():
			t.Stop()
			return nil, w.interrupted()
		}
		poll = min(2*poll, lockPoll)
	}
}

// openLock opens the lock file, creating it when it is absent, and checks
// that what it opened is an empty regular file. It returns nil where the
// platform has no lock.
func (w *writer) openLock() (*os.File, error) {
	if !haveLock {
		return nil, nil
	}
	for {
		fi, err := w.root.Lstat(LockName)
		var f *os.File
		switch {
		case errors.Is(err, fs.ErrNotExist):
			// O_EXCL never follows a symbolic link swapped in since.
			f, err = w.root.OpenFile(LockName, os.O_RDWR|os.O_CREATE|os.O_EXCL|lockOpenFlags, 0o644)
			if errors.Is(err, fs.ErrExist) {
				continue // another run created it first
			}
			if err != nil {
				return nil, invalid.Errorf(Field, w.full(LockName), "cannot be created: %v; etcdshapes locks it so that two runs never write %s at once", unwrapPath(err), w.dir)
			}
			return f, nil
		case err != nil:
			return nil, invalid.Errorf(Field, w.full(LockName), "cannot be inspected: %v; fix its permissions", unwrapPath(err))
		}
		if e := w.notALock(fi); e != nil {
			return nil, e
		}
		f, err = w.root.OpenFile(LockName, os.O_RDWR|lockOpenFlags, 0)
		if errors.Is(err, fs.ErrPermission) {
			// Another user's lock: a read-only descriptor locks as well.
			f, err = w.root.OpenFile(LockName, os.O_RDONLY|lockOpenFlags, 0)
		}
		if errors.Is(err, fs.ErrNotExist) {
			continue // its holder removed it meanwhile
		}
		if err != nil {
			return nil, invalid.Errorf(Field, w.full(LockName), "cannot be opened: %v; etcdshapes locks it so that two runs never write %s at once", unwrapPath(err), w.dir)
		}
		st, err := f.Stat()
		if err == nil && !os.SameFile(fi, st) {
			// Swapped since the Lstat (the root follows a symbolic link
			// inside the directory): look again.
			f.Close()
			continue
		}
		if err != nil {
			f.Close()
			return nil, err
		}
		if e := w.notALock(st); e != nil {
			f.Close()
			return nil, e
		}
		return f, nil
	}
}

// notALock is the refusal of fi, found at LockName, when it is not
// etcdshapes' lock file; nil when it is.
func (w *writer) notALock(fi fs.FileInfo) *invalid.Error {
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		return invalid.Errorf(Field, w.full(LockName), "is a symbolic link%s; etcdshapes never follows one, even with --force: remove it", w.target(LockName))
	case !fi.Mode().IsRegular():
		return invalid.Errorf(Field, w.full(LockName), "is %s, not the empty file etcdshapes locks; it never opens it, even with --force: move it away", kind(fi.Mode()))
	case fi.Size() != 0:
		return invalid.Errorf(Field, w.full(LockName), "holds %d bytes, so it is not the empty file etcdshapes locks while it writes (and then removes): move it away", fi.Size())
	}
	return nil
}

// stillLockFile reports whether f, just locked, is still the file at
// LockName: its previous holder removes it before releasing it.
func (w *writer) stillLockFile(f *os.File) (bool, error) {
	st, err := f.Stat()
	if err != nil {
		return false, err
	}
	fi, err := w.root.Lstat(LockName)
	if errors.Is(err, fs.ErrNotExist) {
		return false, nil
	}
	if err != nil {
		return false, invalid.Errorf(Field, w.full(LockName), "cannot be inspected: %v; fix its permissions", unwrapPath(err))
	}
	return os.SameFile(fi, st), nil
}

// unlock removes the lock file, then releases the lock. The file is
// removed only while it is still the one locked, so a file someone put in
// its place stays.
func (l *dirLock) unlock() {
	if l.f == nil {
		return
	}
	if held, err := l.w.stillLockFile(l.f); err == nil && held {
		_ = l.w.root.Remove(LockName)
	}
	// Closing the descriptor releases the lock.
	_ = l.f.Close()
}

// unwrapPath drops an *fs.PathError's operation and path, which the
// refusal names already.
func unwrapPath(err error) error {
	var pe *fs.PathError
	if errors.As(err, &pe) {
		return pe.Err
	}
	return err
}
