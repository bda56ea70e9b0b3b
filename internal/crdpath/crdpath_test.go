package crdpath

import (
	"os"
	"path/filepath"
	"testing"

	"github.com/stretchr/testify/assert"
)

func TestDirs(t *testing.T) {
	sep := string(os.PathListSeparator)
	abs := filepath.Join(string(filepath.Separator), "abs", "crds")
	for _, tc := range []struct {
		value, root string
		want        []string
	}{
		{"", "/repo", nil},
		{"  ", "/repo", nil},
		{sep + sep, "/repo", nil},
		{"../crds", "", []string{"../crds"}},
		{"../crds", "/repo", []string{filepath.Join("/repo", "../crds")}},
		{abs, "/repo", []string{abs}},
		{"a" + sep + "b", "/repo", []string{filepath.Join("/repo", "a"), filepath.Join("/repo", "b")}},
		{sep + "a" + sep + sep + abs + sep, "", []string{"a", abs}},
	} {
		assert.Equal(t, tc.want, Dirs(tc.value, tc.root), "%q from %q", tc.value, tc.root)
	}
}
