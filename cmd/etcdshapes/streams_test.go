package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/bigyaml"
	"github.com/stretchr/testify/require"
)

// TestEveryStreamBounded: every input that reads many YAML documents is
// bounded as a whole before any document is parsed: --live of plan and of
// render check, from a file and from stdin, and the files of an
// --output-dir a render replaces (read to tell which objects a GitOps
// prune would delete). A file of 64 MiB of "---" (16 million empty
// documents, 24 s of CPU before) or of 896,264 three-line objects (34.5 s
// and 1.96 GB) is refused at once, naming the input and the limit.
func TestEveryStreamBounded(t *testing.T) {
	dir := t.TempDir()
	for name, data := range map[string][]byte{
		"dashes":       bigyaml.EmptyDocuments(inputlimit.MaxLiveBytes / 4),
		"objects":      bigyaml.TinyDocuments(0, inputlimit.MaxLiveBytes),
		"one too many": bigyaml.EmptyDocuments(inputlimit.MaxLiveDocuments + 1),
	} {
		path := filepath.Join(dir, name+".yaml")
		require.NoError(t, os.WriteFile(path, data, 0o600))
		for _, c := range []struct {
			what  string
			stdin string
			args  []string
		}{
			{"plan --live FILE", "", []string{"plan", "etcd", "-n", "tenant-root", "--live", path}},
			{"plan --live -", string(data), []string{"plan", "cluster", "-n", "tenant-demo", "kubernetes-demo", "--live", "-"}},
			{"render check --live FILE", "", []string{"render", "check", "etcd", "-n", "tenant-root", "--live", path}},
			{"render check --live -", string(data), []string{"render", "check", "cluster", "-n", "tenant-demo", "kubernetes-demo", "--live", "-"}},
		} {
			t.Run(name+" "+c.what, func(t *testing.T) {
				start := time.Now()
				code, stdout, stderr := cli(t, c.stdin, c.args...)
				require.Equal(t, exitError, code, stderr)
				require.Empty(t, stdout)
				require.Contains(t, stderr, "--live")
				require.Contains(t, stderr, "has more than 20000 YAML documents (empty ones counted)")
				require.Less(t, time.Since(start), 30*time.Second)
			})
		}
	}

	// An --output-dir file a forced render would replace, beyond the
	// limits: not decoded, so its objects are unknown, and replacing it
	// needs --prune-unsafe.
	out := filepath.Join(dir, "out")
	require.NoError(t, os.MkdirAll(out, 0o755))
	stale := filepath.Join(out, "03-cronjob-etcd-defrag.yaml")
	require.NoError(t, os.WriteFile(stale, []byte(strings.Repeat("---\n", inputlimit.MaxLiveDocuments+1)), 0o600))
	start := time.Now()
	code, _, stderr := cli(t, "", "render", "etcd", "-n", "tenant-root", "--output-dir", out, "--force")
	require.Equal(t, exitUnsafe, code, stderr)
	require.Contains(t, stderr, `--output-dir: invalid value "03-cronjob-etcd-defrag.yaml": has more than 20000 YAML documents`)
	require.Contains(t, stderr, "--prune-unsafe")
	require.Less(t, time.Since(start), 30*time.Second)
	code, _, stderr = cli(t, "", "render", "etcd", "-n", "tenant-root", "--output-dir", out, "--force", "--prune-unsafe")
	require.Equal(t, 0, code, stderr)
}
