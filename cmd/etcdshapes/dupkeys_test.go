package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/testsupport/dupkeytest"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
)

// TestKeysGivenTwiceCLI: the command's readers over every form of the
// class (internal/testsupport/dupkeytest). plan --live, from a file or stdin, refuses
// every live form with exit 1 and one line naming the file, the key's
// place, the key and where both are, and reads the forms beside it;
// render -f, from a file or stdin, and --set-json read every values form
// as helm does (the later key), rendering what the form with the later
// keys only renders, and refuse the keys Helm leaves to chance.
func TestKeysGivenTwiceCLI(t *testing.T) {
	dir := t.TempDir()
	file := func(name, content string) string {
		p := filepath.Join(dir, name)
		require.NoError(t, os.WriteFile(p, []byte(content), 0o600))
		return p
	}
	plan := []string{"plan", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--live"}
	for i, f := range dupkeytest.LiveForms() {
		path := file("live"+strings.Repeat("x", i)+".yaml", f.Doc)
		for _, src := range []struct{ name, arg, stdin string }{{"file", path, ""}, {"stdin", "-", f.Doc}} {
			t.Run("live "+f.Name+" "+src.name, func(t *testing.T) {
				code, stdout, stderr := cli(t, src.stdin, append(plan, src.arg)...)
				if f.Field == "" {
					require.Contains(t, []int{exitOK, exitUnsafe}, code, stderr)
					require.NotContains(t, stderr, "invalid value")
					return
				}
				require.Equal(t, exitError, code, stderr)
				require.Empty(t, stdout)
				prefix := "etcdshapes: --live " + src.arg + ": " + f.Field + ": invalid value " + invalid.FormatValue(f.Key) + ": "
				require.True(t, strings.HasPrefix(stderr, prefix), "want %s…, got %s", prefix, stderr)
				require.Contains(t, stderr, f.Rule)
				require.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %s", stderr)
			})
		}
	}
	render := []string{"render", "etcd", "-n", "tenant-root"}
	for i, f := range dupkeytest.ValuesForms() {
		path := file("values"+strings.Repeat("x", i)+".yaml", f.Doc)
		t.Run("values "+f.Name, func(t *testing.T) {
			if f.Field != "" {
				for _, src := range []struct{ arg, stdin string }{{path, ""}, {"-", f.Doc}} {
					code, stdout, stderr := cli(t, src.stdin, append(render, "-f", src.arg)...)
					require.Equal(t, exitError, code, stderr)
					require.Empty(t, stdout)
					require.True(t, strings.HasPrefix(stderr, "etcdshapes: "+f.Field+": invalid value "+invalid.FormatValue(f.Key)+": "), stderr)
					require.Contains(t, stderr, f.Rule)
				}
				return
			}
			want := ok(t, "", append(render, "-f", file("later"+strings.Repeat("x", i)+".yaml", f.Later))...)
			require.Equal(t, want, ok(t, "", append(render, "-f", path)...), "-f FILE")
			require.Equal(t, want, ok(t, f.Doc, append(render, "-f", "-")...), "-f -")
			if f.SetJSON != "" {
				require.Equal(t, want, ok(t, "", append(render, "--set-json", f.SetJSON)...), "--set-json")
			}
		})
	}
}
