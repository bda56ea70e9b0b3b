package goldenfile_test

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldenfile"
)

// With update, Read writes the file (and its directory) and returns what
// it wrote; without, it returns the file, whatever got is.
func TestReadAndUpdate(t *testing.T) {
	path := filepath.Join(t.TempDir(), "testdata", "x.yaml")
	if got := string(goldenfile.Read(t, path, []byte("a: 1\n"), true, "")); got != "a: 1\n" {
		t.Fatalf("update returns %q, want what it wrote", got)
	}
	if b, err := os.ReadFile(path); err != nil || string(b) != "a: 1\n" {
		t.Fatalf("update wrote %q (%v), want %q", b, err, "a: 1\n")
	}
	if got := string(goldenfile.Read(t, path, []byte("b: 2\n"), false, "")); got != "a: 1\n" {
		t.Fatalf("Read returns %q, want the file's %q", got, "a: 1\n")
	}
}
