package chartwrite

import (
	"context"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"

	"github.com/stretchr/testify/require"
)

// v2 changes every kind of thing a Write does to the tree gen("1") wrote:
// a replaced file, a removed one, a new one in a new directory, the
// manifest.
func v2() []File {
	return []File{
		{Path: "Chart.yaml", Data: []byte("# " + marker + "\nname: x\nversion: 2\n")},
		{Path: "templates/a.yaml", Data: []byte("# " + marker + "\na: 2\n")},
		{Path: "templates/new/c.yaml", Data: []byte("# " + marker + "\nc: 1\n")},
		{Path: "values.yaml", Data: []byte("# " + marker + "\nreplicas: 3\n")},
	}
}

// contents is every regular file under dir and its content; a temporary
// file, a journal or a lock fails the test.
func contents(t *testing.T, dir string) map[string]string {
	t.Helper()
	out := map[string]string{}
	require.NoError(t, filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
		if err != nil || d.IsDir() {
			return err
		}
		rel, err := filepath.Rel(dir, p)
		if err != nil {
			return err
		}
		require.False(t, strings.HasPrefix(d.Name(), tempPrefix), "left behind: %s", rel)
		require.NotEqual(t, LockName, d.Name())
		out[filepath.ToSlash(rel)] = readFile(t, p)
		return nil
	}))
	return out
}

// written is what dir holds after a Write of files into a fresh directory.
func written(t *testing.T, files []File) map[string]string {
	t.Helper()
	dir := t.TempDir()
	_, err := write(t, dir, gen("1"), Options{})
	require.NoError(t, err)
	_, err = write(t, dir, files, Options{})
	require.NoError(t, err)
	return contents(t, dir)
}

// stepsOf lists the steps a Write of files into a directory holding
// gen("1") goes through, in order.
func stepsOf(t *testing.T, files []File) []string {
	t.Helper()
	dir := t.TempDir()
	_, err := write(t, dir, gen("1"), Options{})
	require.NoError(t, err)
	var steps []string
	withHook(t, func(_ context.Context, step string) error { steps = append(steps, step); return nil })
	_, err = write(t, dir, files, Options{})
	require.NoError(t, err)
	return steps
}

func withHook(t *testing.T, h func(context.Context, string) error) {
	t.Helper()
	TestHook = h
	t.Cleanup(func() { TestHook = nil })
}

// beforeCommit reports whether step comes before the commit point, where
// an interrupted Write is undone (after it, finished).
func beforeCommit(step string) bool {
	return step == "journal staging" || step == "journal commit" || strings.HasPrefix(step, "mkdir ") || strings.HasPrefix(step, "stage ")
}

// TestEveryStepFailsWholly (B8): a Write that fails at any of its steps (a
// full disk, an I/O error, a file it cannot rename) leaves either the old
// set of files (before its commit point: what it staged is removed, no
// temporary file, journal or new directory remains) or, once the next
// Write has finished it, the new set; never a half file, a mixed set or a
// manifest that disagrees with the files.
func TestEveryStepFailsWholly(t *testing.T) {
	steps := stepsOf(t, v2())
	require.Equal(t, []string{"journal staging", "mkdir 1", "stage 1", "stage 2", "stage 3", "stage 4", "journal commit",
		"rename 1", "rename 2", "rename 3", "rename 4", "remove 1", "journal done"}, steps)
	old := written(t, gen("1"))
	want := written(t, v2())
	for _, step := range steps {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			_, err := write(t, dir, gen("1"), Options{})
			require.NoError(t, err)
			before := snapshot(t, dir)
			failure := &os.PathError{Op: "write", Path: "x", Err: syscall.ENOSPC}
			withHook(t, func(_ context.Context, s string) error {
				if s == step {
					return failure
				}
				return nil
			})
			_, err = write(t, dir, v2(), Options{})
			require.ErrorIs(t, err, syscall.ENOSPC)
			TestHook = nil
			if beforeCommit(step) {
				require.Equal(t, before, snapshot(t, dir), "a Write that failed before its commit point changed something")
				require.Equal(t, old, contents(t, dir))
				requireManifestAgrees(t, dir)
			} else {
				require.Contains(t, err.Error(), "the write had passed its commit point: the next etcdshapes run into "+dir+" finishes it")
			}
			// The next Write finishes (or finds nothing to finish) and
			// writes the new set.
			res, err := write(t, dir, v2(), Options{})
			require.NoError(t, err)
			if beforeCommit(step) {
				require.Empty(t, res.Recovered)
			} else {
				require.Contains(t, res.Recovered, "interrupted after its commit point; it was finished first")
			}
			require.Equal(t, want, contents(t, dir))
			requireManifestAgrees(t, dir)
		})
	}
}

// TestEveryStepInterrupted (B8): a Write whose context is cancelled (the
// CLI's SIGINT or SIGTERM) at any step before its commit point changes
// nothing and returns an *InterruptedError; after it, finishes and
// returns the new set.
func TestEveryStepInterrupted(t *testing.T) {
	old := written(t, gen("1"))
	want := written(t, v2())
	for _, step := range stepsOf(t, v2()) {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			_, err := write(t, dir, gen("1"), Options{})
			require.NoError(t, err)
			before := snapshot(t, dir)
			ctx, cancel := context.WithCancelCause(context.Background())
			defer cancel(nil)
			stop := errors.New("signal: terminated")
			withHook(t, func(_ context.Context, s string) error {
				if s == step {
					cancel(stop)
				}
				return nil
			})
			var res Result
			within(t, func() { res, err = WriteContext(ctx, dir, v2(), Options{}) })
			if beforeCommit(step) && step != "journal commit" {
				var ie *InterruptedError
				require.ErrorAs(t, err, &ie)
				require.ErrorIs(t, err, stop)
				require.Equal(t, before, snapshot(t, dir))
				require.Equal(t, old, contents(t, dir))
				return
			}
			// "journal commit" is checked for the context just before
			// the journal is written: a cancel there comes too late.
			require.NoError(t, err)
			require.Equal(t, []string{"Chart.yaml", "templates/a.yaml", "templates/new/c.yaml"}, res.Written)
			require.Equal(t, want, contents(t, dir))
			requireManifestAgrees(t, dir)
		})
	}
}

// TestEveryStepKilled (B8): a Write that dies at any step (the process
// killed, the machine down: simulated by ending the Write's goroutine
// there, so that nothing after it runs, no cleanup included) leaves only
// whole files, each the old or the new one; the next Write into the
// directory undoes it (before its commit point: the old set, whatever
// that Write then writes) or finishes it (after: the new set), and says
// so, before it does its own work.
func TestEveryStepKilled(t *testing.T) {
	old := written(t, gen("1"))
	want := written(t, v2())
	for _, step := range stepsOf(t, v2()) {
		t.Run(step, func(t *testing.T) {
			dir := t.TempDir()
			_, err := write(t, dir, gen("1"), Options{})
			require.NoError(t, err)
			withHook(t, func(_ context.Context, s string) error {
				if s == step {
					runtime.Goexit()
				}
				return nil
			})
			done := make(chan struct{})
			go func() {
				defer close(done)
				_, _ = Write(dir, v2(), Options{})
			}()
			within(t, func() { <-done })
			TestHook = nil
			// Every file where a file goes is whole: the old or the new.
			for _, f := range v2() {
				b, err := os.ReadFile(filepath.Join(dir, filepath.FromSlash(f.Path)))
				if errors.Is(err, fs.ErrNotExist) {
					continue
				}
				require.NoError(t, err)
				require.Contains(t, []string{old[f.Path], want[f.Path]}, string(b), f.Path)
			}
			// Undone or finished by the next Write, whatever it writes:
			// here the old tree again, which shows which.
			res, err := write(t, dir, gen("1"), Options{})
			require.NoError(t, err)
			if step == "journal staging" {
				// Died before its journal existed: nothing to undo.
				require.Empty(t, res.Recovered)
			} else if beforeCommit(step) {
				require.Contains(t, res.Recovered, "interrupted before its commit point; its temporary files were removed")
				require.Empty(t, res.Written, "the old set was back before this Write began")
			} else {
				require.Contains(t, res.Recovered, "interrupted after its commit point; it was finished first")
				require.Equal(t, []string{"Chart.yaml", "templates/a.yaml", "templates/b.yaml"}, res.Written, "the new set was complete before this Write began")
			}
			require.Equal(t, old, contents(t, dir))
			requireManifestAgrees(t, dir)
		})
	}
}

// TestRefusesAJournalItCannotHaveWritten: a journal whose entries leave
// the directory, name temporary files Write never names, or are not the
// journal's JSON is refused before anything changes; so is one that is
// not a regular file.
func TestRefusesAJournalItCannotHaveWritten(t *testing.T) {
	for _, c := range []struct{ name, journal, rule string }{
		{"not JSON", "garbage", "is not JSON etcdshapes writes"},
		{"unknown field", `{"version":1,"state":"commit","writes":[],"extra":1}`, "is not JSON etcdshapes writes"},
		{"another version", `{"version":2,"state":"commit","writes":[]}`, "has version 2"},
		{"a path out of the directory", `{"version":1,"state":"commit","writes":[{"temp":"../.etcdshapes-tmp-x","path":"../x"}]}`, `path "../x" must be a clean relative`},
		{"a temporary file elsewhere", `{"version":1,"state":"commit","writes":[{"temp":"other/.etcdshapes-tmp-x","path":"values.yaml"}]}`, "is not one etcdshapes names"},
		{"a temporary file not named as Write names them", `{"version":1,"state":"staging","writes":[{"temp":"values.yaml","path":"Chart.yaml"}]}`, "is not one etcdshapes names"},
		{"a removal out of the directory", `{"version":1,"state":"commit","writes":[],"removes":[{"path":"/etc/passwd"}]}`, "not absolute"},
		{"a bad hash", `{"version":1,"state":"commit","writes":[],"removes":[{"path":"values.yaml","sha256":"xyz"}]}`, "is not one"},
		{"a created directory out of the directory", `{"version":1,"state":"staging","dirs":[".."],"writes":[]}`, "must be a clean relative"},
	} {
		t.Run(c.name, func(t *testing.T) {
			dir := t.TempDir()
			_, err := write(t, dir, gen("1"), Options{})
			require.NoError(t, err)
			writeFile(t, filepath.Join(dir, journalName), c.journal)
			before := snapshot(t, dir)
			_, err = write(t, dir, v2(), Options{})
			require.ErrorContains(t, err, c.rule)
			require.ErrorContains(t, err, filepath.Join(dir, journalName))
			require.Equal(t, before, snapshot(t, dir))
		})
	}
	t.Run("a FIFO", func(t *testing.T) {
		dir := t.TempDir()
		mkfifo(t, filepath.Join(dir, journalName))
		before := snapshot(t, dir)
		_, err := write(t, dir, v2(), Options{})
		require.ErrorContains(t, err, "is a FIFO (named pipe), not the journal etcdshapes writes")
		require.Equal(t, before, snapshot(t, dir))
	})
}

// TestOwners (B7): the manifest records the Write's owner; a Write of
// another owner is refused, even with Force, naming both, and changes
// nothing; a manifest from before owners is adopted unless Adopts says it
// is another command's, and then records the owner.
func TestOwners(t *testing.T) {
	dir := t.TempDir()
	_, err := write(t, dir, gen("1"), Options{Owner: "gen chart --caller etcd"})
	require.NoError(t, err)
	m := readFile(t, filepath.Join(dir, ManifestName))
	require.Contains(t, m, "\n# owner: etcdshapes gen chart --caller etcd\n")
	require.Equal(t, string(formatManifest("gen chart --caller etcd", gen("1"), nil)), m)
	before := snapshot(t, dir)
	for _, force := range []bool{false, true} {
		_, err = write(t, dir, v2(), Options{Owner: "render etcd tenant-root/etcd", Force: force})
		requireRefused(t, dir, before, err, map[string]string{ManifestName: "records the files of 'etcdshapes gen chart --caller etcd', not of 'etcdshapes render etcd tenant-root/etcd'"})
	}
	res, err := write(t, dir, v2(), Options{Owner: "gen chart --caller etcd"})
	require.NoError(t, err)
	require.NotEmpty(t, res.Written)

	// From before owners.
	legacy := t.TempDir()
	_, err = write(t, legacy, gen("1"), Options{})
	require.NoError(t, err)
	require.NotContains(t, readFile(t, filepath.Join(legacy, ManifestName)), "# owner:")
	before = snapshot(t, legacy)
	var seen []string
	_, err = write(t, legacy, v2(), Options{Owner: "render etcd tenant-root/etcd", Adopts: func(paths []string) bool { seen = paths; return false }})
	requireRefused(t, legacy, before, err, map[string]string{ManifestName: "was written by an earlier etcdshapes for another command than 'etcdshapes render etcd tenant-root/etcd' (it records no owner, and lists Chart.yaml, templates/a.yaml, templates/b.yaml and 1 more)"})
	require.Equal(t, []string{"Chart.yaml", "templates/a.yaml", "templates/b.yaml", "values.yaml"}, seen)
	_, err = write(t, legacy, v2(), Options{Owner: "gen chart --caller etcd", Adopts: func([]string) bool { return true }})
	require.NoError(t, err)
	require.Contains(t, readFile(t, filepath.Join(legacy, ManifestName)), "\n# owner: etcdshapes gen chart --caller etcd\n")

	// Owners the line cannot hold; a manifest naming two.
	for _, owner := range []string{"render\netcd", strings.Repeat("x", maxOwnerLen+1)} {
		_, err := Write(t.TempDir(), gen("1"), Options{Owner: owner})
		require.ErrorContains(t, err, "owner: invalid value")
	}
	two := t.TempDir()
	writeFile(t, filepath.Join(two, ManifestName), ownerPrefix+"a\n"+ownerPrefix+"b\n")
	_, err = write(t, two, gen("1"), Options{Owner: "a"})
	require.ErrorContains(t, err, "line 2 names its owner again")
}

// TestApproveSeesWhatGoes: Approve is shown every file a Write replaces or
// removes with its content, before anything changes; its error stops the
// Write with nothing changed.
func TestApproveSeesWhatGoes(t *testing.T) {
	dir := t.TempDir()
	_, err := write(t, dir, gen("1"), Options{})
	require.NoError(t, err)
	before := snapshot(t, dir)
	var got Plan
	no := errors.New("no")
	_, err = write(t, dir, v2(), Options{Approve: func(p Plan) error { got = p; return no }})
	require.ErrorIs(t, err, no)
	require.Equal(t, before, snapshot(t, dir))
	require.Equal(t, Plan{
		Replaced: []Existing{{"Chart.yaml", gen("1")[0].Data}, {"templates/a.yaml", gen("1")[1].Data}},
		Removed:  []Existing{{"templates/b.yaml", gen("1")[2].Data}},
	}, got)
	// Nothing to replace or remove: not asked.
	_, err = write(t, t.TempDir(), gen("1"), Options{Approve: func(Plan) error { return no }})
	require.NoError(t, err)
}
