package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldentest"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// closedPipe is the write end of a pipe whose read end is closed, as
// stdout is in 'etcdshapes render ... | head -c1' once head has exited:
// every write fails (EPIPE), and would kill a Go process with SIGPIPE
// that does not ignore it.
func closedPipe(t *testing.T) *os.File {
	t.Helper()
	r, w, err := os.Pipe()
	require.NoError(t, err)
	require.NoError(t, r.Close())
	t.Cleanup(func() { w.Close() })
	return w
}

// TestClosedPipes: every command that prints, its stdout or its stderr a
// closed pipe, exits 1 (never killed by SIGPIPE, exit 141 in a shell); a
// closed stdout is said on stderr in one line, and nothing else is; both
// closed, it exits 1 (for two commands in the quick tier, every command
// in the slow one). The test binary runs itself as the command (see
// TestMain), with command, which main runs.
func TestClosedPipes(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGPIPE")
	}
	s := goldentest.Scenario(t, "cluster-demo")
	live := writeTemp(t, liveList(t, s, nil))
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.yaml")
	require.NoError(t, os.WriteFile(bad, []byte("replicas: 0\nsize: 0\n"), 0o600))
	stdoutCommands := [][]string{
		{"render", "etcd", "-n", "tenant-root"},
		{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "-o", "json"},
		{"render", "etcd", "-n", "tenant-root", "--show-only", "EtcdCluster/etcd"},
		{"render", "etcd", "-n", "tenant-root", "--output-dir", filepath.Join(dir, "out")},
		{"render", "snapshot", "etcd", "-n", "tenant-root", "--name", "s", "--pvc", "backups"},
		{"render", "check", "etcd", "-n", "tenant-root"},
		append([]string{"plan"}, planArgs(t, s, live)...),
		append(append([]string{"plan"}, planArgs(t, s, live)...), "-o", "json"),
		{"gen", "chart", "--caller", "etcd", "--out", filepath.Join(dir, "chart")},
		{"version"},
		{"version", "-o", "json"},
		{"--version"},
		{"completion", "bash"},
		{"help", "render", "cluster"},
		{"render", "etcd", "--help"},
		{"--help"},
	}
	stderrCommands := [][]string{
		{"render", "etcd", "-n", "tenant-root", "-f", bad}, // bad input, exit 1
		{"render", "etcd", "--no-such-flag"},               // usage, exit 2
		{"render"},                                         // help on stderr, exit 2
		{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--live-datastore", "other"}, // a notice, exit 0
		{"plan", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--live", bad},                 // a malformed live file
	}
	// Both streams closed, the quick tier runs a command whose output the
	// command prints and one whose output cobra prints (help), each a way
	// to the write error (runOn); the slow tier, every command.
	bothQuick := map[string]bool{"render etcd -n tenant-root": true, "render etcd --help": true}
	runWith := func(t *testing.T, args []string, stdout, stderr *os.File) (int, string) {
		cmd := exec.Command(os.Args[0], args...)
		cmd.Env = append(os.Environ(), runAsCommand+"=1")
		var buf bytes.Buffer
		cmd.Stdout, cmd.Stderr = &buf, &buf
		if stdout != nil {
			cmd.Stdout = stdout
		}
		if stderr != nil {
			cmd.Stderr = stderr
		}
		err := cmd.Run()
		var exit *exec.ExitError
		if err == nil {
			return 0, buf.String()
		}
		require.True(t, errors.As(err, &exit), "%v", err)
		require.True(t, exit.Exited(), "killed by a signal: %v (output %q)", err, buf.String())
		return exit.ExitCode(), buf.String()
	}
	for _, args := range stdoutCommands {
		t.Run("stdout/"+strings.Join(args, " "), func(t *testing.T) {
			code, stderr := runWith(t, args, closedPipe(t), nil)
			assert.Equal(t, 1, code, stderr)
			assert.Equal(t, 1, strings.Count(stderr, "\n"), "one line: %q", stderr)
			assert.True(t, strings.HasPrefix(stderr, "etcdshapes: "), stderr)
			assert.Contains(t, stderr, "broken pipe")
		})
		t.Run("both/"+strings.Join(args, " "), func(t *testing.T) {
			if !bothQuick[strings.Join(args, " ")] {
				testtier.SkipUnlessSlow(t, "both streams closed for this command (the quick tier: one the command prints, one cobra prints)")
			}
			p := closedPipe(t)
			code, _ := runWith(t, args, p, p)
			assert.Equal(t, 1, code)
		})
	}
	for _, args := range stderrCommands {
		t.Run("stderr/"+strings.Join(args, " "), func(t *testing.T) {
			code, _ := runWith(t, args, nil, closedPipe(t))
			assert.Equal(t, 1, code)
		})
	}
}
