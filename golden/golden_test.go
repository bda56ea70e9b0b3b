package golden

import (
	"bytes"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldenfile"
	"github.com/stretchr/testify/require"
)

var update = flag.Bool("update", false, "rewrite testdata/*.yaml from the builders")

func render(t *testing.T, s Scenario) []byte {
	t.Helper()
	objs, err := s.Render()
	require.NoError(t, err)
	out, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	return out
}

func TestGolden(t *testing.T) {
	seen := map[string]bool{}
	for _, s := range All() {
		t.Run(s.Name, func(t *testing.T) {
			require.False(t, seen[s.Name], "duplicate scenario name")
			seen[s.Name] = true
			got := render(t, s)
			path := filepath.Join("testdata", s.Name+".yaml")
			want := goldenfile.Read(t, path, got, *update, "missing golden file; run go test ./golden -update and read the diff")
			if !bytes.Equal(want, got) {
				t.Fatalf("%s differs from the builders' output (go test ./golden -update rewrites it):\n%s", path, lineDiff(string(want), string(got)))
			}
		})
	}
}

// TestNoStrayGoldenFiles keeps testdata in step with All.
func TestNoStrayGoldenFiles(t *testing.T) {
	names := map[string]bool{}
	for _, s := range All() {
		names[s.Name+".yaml"] = true
	}
	entries, err := os.ReadDir("testdata")
	require.NoError(t, err)
	for _, e := range entries {
		require.True(t, names[e.Name()], "testdata/%s belongs to no scenario", e.Name())
	}
}

// TestDeterministic renders each caller's stack 100 times (and every other
// scenario 10 times) and compares bytes: map iteration or any other hidden
// order would show up here.
func TestDeterministic(t *testing.T) {
	for _, s := range All() {
		times := 10
		if s.Name == "etcd-defaults" || s.Name == "cluster-demo" {
			times = 100
		}
		t.Run(s.Name, func(t *testing.T) {
			t.Parallel()
			first := render(t, s)
			for i := 1; i < times; i++ {
				if got := render(t, s); !bytes.Equal(first, got) {
					t.Fatalf("render %d differs from the first:\n%s", i, lineDiff(string(first), string(got)))
				}
			}
		})
	}
}

// lineDiff reports the first differing lines with a little context, which
// reads better than two whole stacks.
func lineDiff(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	i := 0
	for i < len(w) && i < len(g) && w[i] == g[i] {
		i++
	}
	var b strings.Builder
	for j := max(0, i-3); j < i; j++ {
		fmt.Fprintf(&b, "  %4d   %s\n", j+1, w[j])
	}
	for j := i; j < len(w) && j < i+5; j++ {
		fmt.Fprintf(&b, "- %4d   %s\n", j+1, w[j])
	}
	for j := i; j < len(g) && j < i+5; j++ {
		fmt.Fprintf(&b, "+ %4d   %s\n", j+1, g[j])
	}
	return b.String()
}
