package main

import (
	"bytes"
	"errors"
	"io"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/internal/testsupport/bigyaml"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testtier"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"
	"github.com/stretchr/testify/require"
)

// endless is a stream that never ends; it counts what was read.
type endless struct{ n int64 }

func (e *endless) Read(p []byte) (int, error) {
	for i := range p {
		p[i] = 'a'
	}
	e.n += int64(len(p))
	return len(p), nil
}

// hangLimit is how long a command may take in these tests before it counts
// as hung (a FIFO or an endless stdin read without end). It guards against
// a hang, not for speed: each command takes well under a second on a quiet
// machine, and the limit leaves a loaded one room, where 30 seconds was
// once exceeded at a load average of 10 on 2 cores.
const hangLimit = 2 * time.Minute

// runWithin runs the CLI and fails if it takes longer than d (a hang).
func runWithin(t *testing.T, d time.Duration, args []string, stdin io.Reader) (int, string, string) {
	t.Helper()
	type result struct {
		code           int
		stdout, stderr string
	}
	done := make(chan result, 1)
	go func() {
		var stdout, stderr bytes.Buffer
		code := run(args, stdin, &stdout, &stderr)
		done <- result{code, stdout.String(), stderr.String()}
	}()
	select {
	case r := <-done:
		return r.code, r.stdout, r.stderr
	case <-time.After(d):
		t.Fatalf("%q did not finish within %s", args, d)
		return 0, "", ""
	}
}

// TestHostileInputFiles: every way a values, live or snapshots file can be too big
// (a device without end, a huge regular file, an endless stdin, an endless
// FIFO) ends quickly with an error naming the flag and the file, after
// reading at most one byte past the limit, and heap use stays bounded.
func TestHostileInputFiles(t *testing.T) {
	dir := t.TempDir()
	huge := filepath.Join(dir, "huge.yaml")
	f, err := os.Create(huge)
	require.NoError(t, err)
	require.NoError(t, f.Truncate(100<<20)) // 100 MB, sparse
	require.NoError(t, f.Close())
	many := filepath.Join(dir, "many.yaml")
	require.NoError(t, os.WriteFile(many, []byte("a:\n"+strings.Repeat("- 1\n", max(values.MaxNodes, plan.MaxNodes))), 0o600))

	sources := map[string]func(t *testing.T) (string, io.Reader){
		"/dev/zero":    func(*testing.T) (string, io.Reader) { return "/dev/zero", nil },
		"100 MB file":  func(*testing.T) (string, io.Reader) { return huge, nil },
		"many nodes":   func(*testing.T) (string, io.Reader) { return many, nil },
		"endless pipe": func(*testing.T) (string, io.Reader) { return "-", &endless{} },
		"endless FIFO": func(t *testing.T) (string, io.Reader) {
			p := filepath.Join(t.TempDir(), "fifo")
			require.NoError(t, syscall.Mkfifo(p, 0o600))
			go func() {
				w, err := os.OpenFile(p, os.O_WRONLY, 0)
				if err != nil {
					return
				}
				defer w.Close()
				_, _ = io.Copy(w, &endless{}) // ends with EPIPE when the reader closes
			}()
			return p, nil
		},
	}
	commands := map[string]func(path string) []string{
		"render -f": func(p string) []string { return []string{"render", "etcd", "-n", "tenant-root", "-f", p} },
		"plan -f": func(p string) []string {
			return []string{"plan", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--live", os.DevNull, "-f", p}
		},
		"plan --live": func(p string) []string { return []string{"plan", "etcd", "-n", "tenant-root", "--live", p} },
		"render --restore-from": func(p string) []string {
			return []string{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--restore-from", p}
		},
		"plan --restore-from": func(p string) []string {
			return []string{"plan", "etcd", "-n", "tenant-root", "--live", os.DevNull, "--restore-from", p}
		},
		"render --set-file": func(p string) []string {
			return []string{"render", "etcd", "-n", "tenant-root", "--set-file", "storageClass=" + p}
		},
	}
	for sname, source := range sources {
		for cname, command := range commands {
			if cname == "render --set-file" && sname == "many nodes" {
				continue // a --set-file value is a string, never parsed
			}
			t.Run(cname+" "+sname, func(t *testing.T) {
				path, stdin := source(t)
				if stdin == nil {
					stdin = strings.NewReader("")
				}
				runtime.GC()
				var before runtime.MemStats
				runtime.ReadMemStats(&before)
				code, stdout, stderr := runWithin(t, hangLimit, command(path), stdin)
				var after runtime.MemStats
				runtime.ReadMemStats(&after)
				require.Equal(t, 1, code, stderr)
				require.Empty(t, stdout)
				require.Equal(t, 1, strings.Count(stderr, "etcdshapes:"), stderr)
				require.Regexp(t, `^etcdshapes: (--values|--live|--set-file|--restore-from|values\[0\]|--(live|restore-from) \S+: live\[0\]): invalid value "`, stderr)
				require.Contains(t, stderr, "limit")
				limit := values.MaxBytes
				if cname == "plan --live" || strings.HasSuffix(cname, "--restore-from") {
					limit = plan.MaxBytes
				}
				if e, ok := stdin.(*endless); ok {
					require.LessOrEqual(t, e.n, int64(limit)+64<<10, "read past the limit")
				}
				// Allocated while reading: the limit and its buffer's
				// growth, never the 100 MB or the endless stream.
				require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(3*limit+16<<20))
			})
		}
	}
}

// fullWriter fails every write, as stdout on a full disk does.
type fullWriter struct{}

func (fullWriter) Write([]byte) (int, error) { return 0, syscall.ENOSPC }

// TestWriteErrors: a command whose output cannot be written fails (exit
// 1, the error on stderr), whatever the command; /dev/full is the real
// case.
func TestWriteErrors(t *testing.T) {
	live := filepath.Join(t.TempDir(), "live.yaml")
	var out bytes.Buffer
	require.Equal(t, 0, run([]string{"render", "etcd", "-n", "tenant-root"}, strings.NewReader(""), &out, io.Discard))
	require.NoError(t, os.WriteFile(live, out.Bytes(), 0o600))
	full, err := os.OpenFile("/dev/full", os.O_WRONLY, 0)
	if err != nil {
		full = nil
	}
	for _, args := range [][]string{
		{"render", "etcd", "-n", "tenant-root"},
		{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo"},
		{"render", "snapshot", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--name", "now", "--pvc", "backups"},
		{"render", "check", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--datascale"},
		{"plan", "etcd", "-n", "tenant-root", "--live", live},
		{"plan", "etcd", "-n", "tenant-root", "--live", live, "--output", "json"},
		{"render", "--help"},
		{"render", "etcd", "-n", "tenant-root", "-o", "json"},
		{"render", "etcd", "-n", "tenant-root", "--output-dir", t.TempDir()},
		{"version"},
		{"--version"},
		{"help", "render", "cluster"},
		{"completion", "bash"},
	} {
		for name, w := range map[string]io.Writer{"failing writer": fullWriter{}, "/dev/full": full} {
			if w == (*os.File)(nil) || w == nil {
				continue
			}
			var stderr bytes.Buffer
			code := run(args, strings.NewReader(""), w, &stderr)
			require.NotEqual(t, 0, code, "%q to %s", args, name)
			require.Contains(t, stderr.String(), "no space left on device", "%q to %s", args, name)
		}
	}
	if full != nil {
		require.NoError(t, full.Close())
	}
	require.True(t, errors.Is(syscall.ENOSPC, syscall.ENOSPC))
}

// TestRealisticInputFiles: a large values file as a platform passes one,
// just under values.MaxNodes, and a live file as kubectl prints a busy
// namespace (300,000 nodes: managed fields, last-applied annotations,
// status: the etcd's member Pods, without its EtcdCluster, so the plan is
// of a partial live file) plan, through the flags; the limit before nodes
// (100,000 YAML indicators) refused both. The slow tier adds render -f and
// the live file from stdin (the root package's
// TestRealisticInputWithinLimits has the same inputs through the Go API;
// TestHostileInputFiles, stdin's limit).
func TestRealisticInputFiles(t *testing.T) {
	dir := t.TempDir()
	v, err := bigyaml.Values(values.MaxNodes - 500)
	require.NoError(t, err)
	live, err := bigyaml.LiveList("tenant-root", 300_000)
	require.NoError(t, err)
	vf, lf := filepath.Join(dir, "values.yaml"), filepath.Join(dir, "live.yaml")
	require.NoError(t, os.WriteFile(vf, v, 0o600))
	require.NoError(t, os.WriteFile(lf, live, 0o600))
	// The namespace's Pods are the etcd's members (labeled
	// app.kubernetes.io/instance: etcd), and its EtcdCluster is not in the
	// file: a partial live file, which plans but is never safe (exit 3).
	code, stdout, stderr := runWithin(t, hangLimit, []string{"plan", "etcd", "-n", "tenant-root", "-f", vf, "--live", lf}, strings.NewReader(""))
	require.Equal(t, exitUnsafe, code, stderr)
	require.Contains(t, stdout, "Plan: ")
	require.Contains(t, stdout, "DECISION: missing from the live objects: the live file is partial")
	testtier.SkipUnlessSlow(t, "render -f and plan --live - with the same files")
	code, stdout, stderr = runWithin(t, hangLimit, []string{"render", "etcd", "-n", "tenant-root", "-f", vf}, strings.NewReader(""))
	require.Equal(t, 0, code, stderr)
	require.Contains(t, stdout, "kind: EtcdCluster")
	code, _, stderr = runWithin(t, hangLimit, []string{"plan", "etcd", "-n", "tenant-root", "--live", "-"}, bytes.NewReader(live))
	require.Equal(t, exitUnsafe, code, stderr)
}
