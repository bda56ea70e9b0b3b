package chartwrite

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
)

// requireManifestAgrees checks that dir's manifest lists exactly the
// regular files under dir (the manifest left out) and each with its
// content's SHA-256, and that no lock or temporary file is left behind.
func requireManifestAgrees(t *testing.T, dir string) {
	t.Helper()
	listed := map[string]string{}
	for _, line := range strings.Split(readFile(t, filepath.Join(dir, ManifestName)), "\n") {
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sum, p, ok := strings.Cut(line, "  ")
		require.True(t, ok, line)
		listed[p] = sum
	}
	onDisk := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		rel = filepath.ToSlash(rel)
		require.NotEqual(t, LockName, rel, "the lock file was left behind")
		require.False(t, strings.HasPrefix(filepath.Base(rel), tempPrefix), "a temporary file was left behind: %s", rel)
		if rel == ManifestName {
			return nil
		}
		sum := sha256.Sum256([]byte(readFile(t, p)))
		onDisk[rel] = hex.EncodeToString(sum[:])
		return nil
	}))
	require.Equal(t, onDisk, listed, "the manifest disagrees with the files")
}

// TestConcurrentWritesAgree: two Writes of different trees into one
// directory at once, many times over, never leave a manifest that
// disagrees with the files: the lock orders them, so both succeed (the
// second replaces what the first wrote, which its manifest lists), and a
// third Write afterwards succeeds. Without the lock both read the same
// manifest, and the one that records last may record the other's files'
// hashes wrong, so that every later run refuses them as "edited since".
func TestConcurrentWritesAgree(t *testing.T) {
	if !haveLock {
		t.Skip("no flock on this platform")
	}
	dir := filepath.Join(t.TempDir(), "chart")
	rounds := 40
	if testing.Short() {
		rounds = 10
	}
	for round := range rounds {
		trees := [][]File{gen(fmt.Sprintf("a%d", round)), gen(fmt.Sprintf("b%d", round))}
		// Different file sets too, so that one's stale files are the
		// other's.
		trees[0] = append(trees[0], File{Path: fmt.Sprintf("templates/only-a-%d.yaml", round%3), Data: []byte("a\n")})
		trees[1] = append(trees[1], File{Path: fmt.Sprintf("templates/only-b-%d.yaml", round%2), Data: []byte("b\n")})
		var (
			wg    sync.WaitGroup
			start = make(chan struct{})
			errs  = make([]error, len(trees))
		)
		for i, files := range trees {
			wg.Add(1)
			go func() {
				defer wg.Done()
				<-start
				_, errs[i] = Write(dir, files, Options{LockWait: 20 * time.Second})
			}()
		}
		within(t, func() {
			close(start)
			wg.Wait()
		})
		for i, err := range errs {
			require.NoError(t, err, "round %d, writer %d", round, i)
		}
		requireManifestAgrees(t, dir)
	}
	_, err := write(t, dir, gen("c"), Options{})
	require.NoError(t, err)
	requireManifestAgrees(t, dir)
	for _, f := range gen("c") {
		require.Equal(t, string(f.Data), readFile(t, filepath.Join(dir, f.Path)))
	}
}

// holdLock takes dir's lock as another Write would, until release.
func holdLock(t *testing.T, dir string) (release func()) {
	t.Helper()
	root, err := os.OpenRoot(dir)
	require.NoError(t, err)
	w := &writer{dir: dir, root: root, o: Options{LockWait: time.Second}}
	l, err := w.lock()
	require.NoError(t, err)
	return func() { l.unlock(); root.Close() }
}

// TestHeldLockIsBounded: a Write that finds the lock held waits at most
// LockWait, then changes nothing and says which lock and why; once the
// lock is released, the next Write succeeds.
func TestHeldLockIsBounded(t *testing.T) {
	if !haveLock {
		t.Skip("no flock on this platform")
	}
	dir := t.TempDir()
	_, err := write(t, dir, gen("1"), Options{})
	require.NoError(t, err)
	release := holdLock(t, dir)
	before := snapshot(t, dir)
	began := time.Now()
	_, err = write(t, dir, gen("2"), Options{LockWait: 300 * time.Millisecond})
	waited := time.Since(began)
	var ne *invalid.Error
	require.ErrorAs(t, err, &ne)
	require.Equal(t, Field, ne.Field)
	require.Equal(t, filepath.Join(dir, LockName), ne.Value)
	require.Contains(t, ne.Rule, "is locked by another process, most likely another etcdshapes writing "+dir+" (waited 300ms): run again when it is done")
	require.GreaterOrEqual(t, waited, 300*time.Millisecond)
	require.Less(t, waited, 10*time.Second)
	require.Equal(t, before, snapshot(t, dir))

	// A Write waiting while the holder finishes gets the lock.
	done := make(chan error, 1)
	go func() {
		_, err := Write(dir, gen("2"), Options{LockWait: 20 * time.Second})
		done <- err
	}()
	time.Sleep(50 * time.Millisecond)
	release()
	within(t, func() { err = <-done })
	require.NoError(t, err)
	require.Equal(t, string(gen("2")[0].Data), readFile(t, filepath.Join(dir, "Chart.yaml")))
	requireManifestAgrees(t, dir)
}

// TestLockWaitIsInterrupted: a Write waiting for another's lock stops as
// soon as its context is cancelled (the CLI's SIGINT or SIGTERM), with an
// *InterruptedError and nothing changed, not after LockWait.
func TestLockWaitIsInterrupted(t *testing.T) {
	if !haveLock {
		t.Skip("no flock on this platform")
	}
	dir := t.TempDir()
	_, err := write(t, dir, gen("1"), Options{})
	require.NoError(t, err)
	release := holdLock(t, dir)
	defer release()
	before := snapshot(t, dir)
	ctx, cancel := context.WithCancelCause(context.Background())
	stop := errors.New("signal: interrupt")
	time.AfterFunc(100*time.Millisecond, func() { cancel(stop) })
	began := time.Now()
	within(t, func() { _, err = WriteContext(ctx, dir, gen("2"), Options{LockWait: time.Minute}) })
	var ie *InterruptedError
	require.ErrorAs(t, err, &ie)
	require.ErrorIs(t, err, stop)
	require.Less(t, time.Since(began), 10*time.Second)
	require.Equal(t, before, snapshot(t, dir))
}

// TestLockFileThatIsNotALock: at LockName, a symbolic link, a FIFO, a
// directory or a file with content is not etcdshapes' lock: refused (a
// *invalid.Error naming it), never opened, followed or removed, even with
// Force, and nothing is written. An empty file (a run killed while it held
// the lock) is taken and removed.
func TestLockFileThatIsNotALock(t *testing.T) {
	if !haveLock {
		t.Skip("no flock on this platform")
	}
	elsewhere := t.TempDir()
	writeFile(t, filepath.Join(elsewhere, "target"), "")
	outside := snapshot(t, elsewhere)
	for _, tc := range []struct {
		name  string
		setup func(p string)
		rule  string
	}{
		{"symbolic link", func(p string) { require.NoError(t, os.Symlink(filepath.Join(elsewhere, "target"), p)) }, "is a symbolic link"},
		{"dangling symbolic link", func(p string) { require.NoError(t, os.Symlink(filepath.Join(elsewhere, "none"), p)) }, "is a symbolic link"},
		{"FIFO", func(p string) { mkfifo(t, p) }, "is a FIFO (named pipe), not the empty file etcdshapes locks"},
		{"directory", func(p string) { require.NoError(t, os.Mkdir(p, 0o755)) }, "is a directory, not the empty file"},
		{"file with content", func(p string) { writeFile(t, p, "mine\n") }, "holds 5 bytes"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if tc.name == "FIFO" && runtime.GOOS == "windows" {
				t.Skip("no FIFOs")
			}
			dir := t.TempDir()
			tc.setup(filepath.Join(dir, LockName))
			before := snapshot(t, dir)
			_, err := write(t, dir, gen("1"), Options{Force: true})
			var ne *invalid.Error
			require.ErrorAs(t, err, &ne)
			require.Equal(t, Field, ne.Field)
			require.Equal(t, filepath.Join(dir, LockName), ne.Value)
			require.Contains(t, ne.Rule, tc.rule)
			require.Equal(t, before, snapshot(t, dir))
			require.Equal(t, outside, snapshot(t, elsewhere))
		})
	}
	dir := t.TempDir()
	writeFile(t, filepath.Join(dir, LockName), "")
	_, err := write(t, dir, gen("1"), Options{})
	require.NoError(t, err)
	require.NoFileExists(t, filepath.Join(dir, LockName))
	requireManifestAgrees(t, dir)
}

// TestPartialNeverRemoves: a partial Write (a filtered render) writes its
// files and removes nothing: files the manifest lists and the Write does
// not carry stay, listed with the hash they were written with (an edited
// one stays "edited since"), and a listed file that is gone is forgotten.
// A complete Write afterwards removes what is stale, as always.
func TestPartialNeverRemoves(t *testing.T) {
	dir := t.TempDir()
	v1 := append(gen("1"), File{Path: "templates/old.yaml", Data: []byte("old\n")}, File{Path: "templates/gone.yaml", Data: []byte("gone\n")})
	_, err := write(t, dir, v1, Options{})
	require.NoError(t, err)
	require.NoError(t, os.Remove(filepath.Join(dir, "templates", "gone.yaml")))
	writeFile(t, filepath.Join(dir, "values.yaml"), "edited\n")

	res, err := write(t, dir, gen("2")[:1], Options{Partial: true})
	require.NoError(t, err)
	require.Equal(t, []string{"Chart.yaml"}, res.Written)
	require.Empty(t, res.Removed)
	require.Empty(t, res.Left)
	require.Equal(t, "old\n", readFile(t, filepath.Join(dir, "templates", "old.yaml")))
	require.Equal(t, string(gen("1")[1].Data), readFile(t, filepath.Join(dir, "templates", "a.yaml")))
	m := readFile(t, filepath.Join(dir, ManifestName))
	sumOld := sha256.Sum256([]byte("old\n"))
	require.Contains(t, m, hex.EncodeToString(sumOld[:])+"  templates/old.yaml\n")
	require.NotContains(t, m, "gone.yaml")
	sumValues := sha256.Sum256(gen("1")[3].Data)
	require.Contains(t, m, hex.EncodeToString(sumValues[:])+"  values.yaml\n", "the edited file keeps the hash it was written with")
	require.Len(t, strings.Split(strings.TrimSpace(m[len(manifestHeader):]), "\n"), 5, "%s", m)

	// The edited file is still refused by a complete Write; the stale one
	// is removed by it.
	_, err = write(t, dir, gen("2"), Options{})
	require.ErrorContains(t, err, "values.yaml")
	require.ErrorContains(t, err, "was edited since")
	writeFile(t, filepath.Join(dir, "values.yaml"), string(gen("1")[3].Data))
	res, err = write(t, dir, gen("2"), Options{})
	require.NoError(t, err)
	require.Equal(t, []string{"templates/old.yaml"}, res.Removed)
	requireManifestAgrees(t, dir)
}
