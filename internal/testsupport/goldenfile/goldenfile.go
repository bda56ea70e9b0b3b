// Package goldenfile reads the files in testdata that tests pin output to
// byte for byte, and rewrites them when a test runs with -update. Only
// tests import it.
package goldenfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Read returns the golden file at path, for the caller to compare with
// got. With update it writes got there instead (making the directory) and
// returns got, so the comparison passes and git shows the difference. A
// file it cannot read fails the test with the error and hint (how to
// write the file).
func Read(t testing.TB, path string, got []byte, update bool, hint string) []byte {
	t.Helper()
	if update {
		if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(path, got, 0o644); err != nil {
			t.Fatal(err)
		}
		return got
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v: %s", err, hint)
	}
	return want
}
