//go:build linux || darwin || freebsd || netbsd || openbsd || dragonfly || illumos

package main

import (
	"os"
	"path/filepath"
	"syscall"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/chartgen"
	"github.com/etcdshapes/etcdshapes/internal/chartwrite"
	"github.com/stretchr/testify/require"
)

// TestHeldLockFailsClearly: a run that finds its directory locked by
// another (a process holding flock on DIR/.etcdshapes-lock) waits a
// bounded time, then exits 1 naming the lock, having written nothing;
// gen and render --output-dir alike.
func TestHeldLockFailsClearly(t *testing.T) {
	saved := lockWait
	lockWait = 200 * time.Millisecond
	defer func() { lockWait = saved }()
	// The library chart is generated once per process (chartgen.Chart):
	// generating it here, before the clock starts, leaves the wait and
	// the refusal to be timed, not a second of generation that a loaded
	// machine stretches past the bound.
	_, err := chartgen.Chart(chartgen.Options{Library: true})
	require.NoError(t, err)
	for _, args := range [][]string{
		{"gen", "chart", "--library", "--out"},
		{"render", "cluster", "-n", "tenant-demo", "--release", "kubernetes-demo", "--output-dir"},
	} {
		dir := t.TempDir()
		lock := filepath.Join(dir, chartwrite.LockName)
		f, err := os.OpenFile(lock, os.O_RDWR|os.O_CREATE, 0o644)
		require.NoError(t, err)
		require.NoError(t, syscall.Flock(int(f.Fd()), syscall.LOCK_EX|syscall.LOCK_NB))
		before := tree(t, dir)
		began := time.Now()
		code, stdout, stderr := cli(t, "", append(args, dir)...)
		// Below the default wait: it waited lockWait, not the default (a
		// fixed bound of seconds broke on a machine at load 20, where the
		// render alone took longer; the message below names the wait).
		require.Less(t, time.Since(began), saved)
		require.Equal(t, exitError, code, stderr)
		require.Empty(t, stdout)
		field := "--out"
		if args[0] == "render" {
			field = "--output-dir"
		}
		require.Equal(t, "etcdshapes: "+field+": invalid value \""+lock+"\": is locked by another process, most likely another etcdshapes writing "+dir+" (waited 200ms): run again when it is done\n"+
			"etcdshapes: nothing was written to "+dir+"\n", stderr)
		require.Equal(t, before, tree(t, dir))
		// Released: the next run writes, and removes the lock file
		// (render's, which costs less than gen's).
		require.NoError(t, f.Close())
		if args[0] == "gen" {
			continue
		}
		code, _, stderr = cli(t, "", append(args, dir)...)
		require.Equal(t, 0, code, stderr)
		require.NoFileExists(t, lock)
		requireManifestAgrees(t, dir)
	}
}
