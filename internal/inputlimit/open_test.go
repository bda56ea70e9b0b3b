//go:build unix

package inputlimit

import (
	"errors"
	"io"
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"
)

// TestOpen: Open reads a regular file, a device and a FIFO whose writer
// comes as os.Open would, refuses a FIFO no writer opens within the wait
// (*NoWriterError, after the wait and not long after it), and returns
// os.Open's error for a path that is not there.
func TestOpen(t *testing.T) {
	dir := t.TempDir()
	file := filepath.Join(dir, "file")
	if err := os.WriteFile(file, []byte("a: 1\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	read := func(path string, wait time.Duration) (string, error) {
		r, err := Open(path, wait)
		if err != nil {
			return "", err
		}
		defer r.Close()
		b, err := io.ReadAll(io.LimitReader(r, 64))
		return string(b), err
	}
	if got, err := read(file, time.Second); err != nil || got != "a: 1\n" {
		t.Errorf("regular file: %q, %v", got, err)
	}
	if got, err := read(os.DevNull, time.Second); err != nil || got != "" {
		t.Errorf("%s: %q, %v", os.DevNull, got, err)
	}
	if got, err := read("/dev/zero", time.Second); err != nil || len(got) != 64 {
		t.Errorf("/dev/zero: %d bytes, %v", len(got), err)
	}
	_, err := read(filepath.Join(dir, "missing"), time.Second)
	if _, want := os.Open(filepath.Join(dir, "missing")); err == nil || err.Error() != want.Error() {
		t.Errorf("missing: %v, want %v", err, want)
	}

	fifo := filepath.Join(dir, "fifo")
	if err := syscall.Mkfifo(fifo, 0o600); err != nil {
		t.Fatal(err)
	}
	begin := time.Now()
	_, err = read(fifo, 300*time.Millisecond)
	var nw *NoWriterError
	if took := time.Since(begin); !errors.As(err, &nw) || took < 300*time.Millisecond || took > time.Minute {
		t.Errorf("FIFO without a writer: %v after %s", err, took)
	}
	go func() {
		time.Sleep(100 * time.Millisecond)
		w, err := os.OpenFile(fifo, os.O_WRONLY|syscall.O_NONBLOCK, 0)
		if err != nil {
			return
		}
		defer w.Close()
		_, _ = w.WriteString("b: 2\n")
	}()
	if got, err := read(fifo, time.Minute); err != nil || got != "b: 2\n" {
		t.Errorf("FIFO with a writer: %q, %v", got, err)
	}
}
