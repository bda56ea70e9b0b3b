package chartwrite

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"
)

// The journal a Write keeps in the directory while it changes it: what it
// stages (the temporary files, the directories it creates) and, from its
// commit point on, what it renames into place and removes. Both names
// start with tempPrefix, so no generated path can take them.
const (
	journalName = tempPrefix + "journal"
	// journalNew is the journal being written, renamed over journalName.
	journalNew = tempPrefix + "journal-new"
	// maxJournalSize bounds the journal a Write reads.
	maxJournalSize = 4 << 20
	journalVersion = 1
)

// Journal states.
const (
	// stateStaging: temporary files may exist; nothing else changed. An
	// interrupted Write is undone: its temporary files and the
	// directories it created are removed.
	stateStaging = "staging"
	// stateCommit: every temporary file is complete; the Write renames
	// them into place and removes the stale files. An interrupted Write is
	// finished.
	stateCommit = "commit"
)

// TestHook, when set (by tests only), is called before each step of a
// Write that changes the directory: "journal staging", "mkdir N", "stage
// N", "journal commit", "rename N", "remove N", "journal done" (N counts
// from 1 in each kind), with the Write's context. An error it returns is
// that step's error; a hook that blocks pauses the Write there.
var TestHook func(ctx context.Context, step string) error

func (w *writer) step(name string, n int) error {
	if TestHook == nil {
		return nil
	}
	if n > 0 {
		name += " " + strconv.Itoa(n)
	}
	return TestHook(w.ctx, name)
}

// ErrUnfinished is wrapped by the error of a Write that failed after its
// commit point: the directory holds part of the new set until the next
// Write into it finishes the rest (the error says so). Every other error
// of a Write leaves the directory as it was.
var ErrUnfinished = errors.New("unfinished")

// unfinished is err, from after the commit point: it says the next run
// finishes the Write, and wraps ErrUnfinished.
func (w *writer) unfinished(err error) error {
	return &unfinishedError{err: err, dir: w.dir}
}

type unfinishedError struct {
	err error
	dir string
}

func (e *unfinishedError) Error() string {
	return fmt.Sprintf("%v; the write had passed its commit point: the next etcdshapes run into %s finishes it", e.err, e.dir)
}

func (e *unfinishedError) Unwrap() []error { return []error{e.err, ErrUnfinished} }

// staged is one file a Write puts in place through a temporary file.
type staged struct {
	path string
	data []byte
	perm fs.FileMode
	temp string // its temporary file, set by commit
	done bool   // renamed into place
}

// removal is one stale file a Write removes.
type removal struct {
	path string
	// sum is its content's SHA-256 when known (a file above MaxFileSize
	// that Force removes is not read).
	sum   [sha256.Size]byte
	known bool
	done  bool
}

type journal struct {
	Version int    `json:"version"`
	State   string `json:"state"`
	// Dirs are the directories the Write creates, parents first.
	Dirs    []string        `json:"dirs,omitempty"`
	Writes  []journalWrite  `json:"writes"`
	Removes []journalRemove `json:"removes,omitempty"`
}

type journalWrite struct {
	Temp string `json:"temp"`
	Path string `json:"path"`
}

type journalRemove struct {
	Path string `json:"path"`
	// SHA256 is the content the file must still have to be removed;
	// empty when unknown (then a recovery leaves the file).
	SHA256 string `json:"sha256,omitempty"`
}

// commit changes the directory: it stages every write (a temporary file in
// its own directory, complete and synced) under a journal that lists them,
// then, at its commit point, marks the journal "commit", renames the
// temporary files into place, removes the stale files and removes the
// journal. Before the commit point a failure or an interruption removes
// what was staged (the directory is as it was); after it, the Write goes
// on to the end (a failure there leaves the journal, and the next Write
// finishes it before anything else). writes and removes are marked done as
// they are.
func (w *writer) commit(writes []staged, removes []removal) ([]Note, error) {
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return nil, err
	}
	run := hex.EncodeToString(rnd[:])
	j := journal{Version: journalVersion, State: stateStaging}
	created := map[string]bool{}
	for i := range writes {
		s := &writes[i]
		d := path.Dir(s.path)
		s.temp = path.Join(d, tempPrefix+run+"-"+strconv.Itoa(i))
		j.Writes = append(j.Writes, journalWrite{Temp: s.temp, Path: s.path})
		// The directories to create, parents first: checkParents found
		// every existing one a real directory.
		parts := strings.Split(s.path, "/")
		for k := 1; k < len(parts); k++ {
			dir := strings.Join(parts[:k], "/")
			if created[dir] {
				continue
			}
			if _, err := w.root.Lstat(dir); errors.Is(err, fs.ErrNotExist) {
				created[dir] = true
				j.Dirs = append(j.Dirs, dir)
			}
		}
	}
	for _, r := range removes {
		e := journalRemove{Path: r.path}
		if r.known {
			e.SHA256 = hex.EncodeToString(r.sum[:])
		}
		j.Removes = append(j.Removes, e)
	}

	if err := w.writeJournal(j); err != nil {
		return nil, w.undo(j, err)
	}
	for i, d := range j.Dirs {
		if err := w.step("mkdir", i+1); err != nil {
			return nil, w.undo(j, fmt.Errorf("%s: %w", w.full(d), err))
		}
		if err := w.root.Mkdir(d, 0o755); err != nil {
			return nil, w.undo(j, fmt.Errorf("%s: %w", w.full(d), err))
		}
	}
	for i := range writes {
		if err := w.interrupted(); err != nil {
			return nil, w.undo(j, err)
		}
		if err := w.step("stage", i+1); err != nil {
			return nil, w.undo(j, fmt.Errorf("%s: %w", w.full(writes[i].path), err))
		}
		if err := w.stage(writes[i]); err != nil {
			return nil, w.undo(j, err)
		}
	}
	// Every temporary file's directory entry on disk before the commit
	// point, so that a crash after it finds them.
	synced := map[string]bool{}
	for _, s := range writes {
		if d := path.Dir(s.path); !synced[d] {
			synced[d] = true
			w.syncDir(d)
		}
	}
	if err := w.interrupted(); err != nil {
		return nil, w.undo(j, err)
	}
	j.State = stateCommit
	if err := w.writeJournal(j); err != nil {
		return nil, w.undo(j, err)
	}
	// The commit point: from here on the Write goes to its end.
	return w.finish(j, writes, removes)
}

// stage writes s's temporary file: created (never over anything), its
// content, its mode, synced.
func (w *writer) stage(s staged) error {
	f, err := w.root.OpenFile(s.temp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("%s: %w", w.full(s.path), unwrapPath(err))
	}
	_, err = f.Write(s.data)
	if err == nil {
		err = f.Chmod(s.perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return fmt.Errorf("%s: %w", w.full(s.path), unwrapPath(err))
	}
	return nil
}

// undo removes what j staged, after the error err stopped the Write before
// its commit point, and returns err (with what undo could not remove, if
// anything: then the journal stays, for the next Write to finish undoing).
func (w *writer) undo(j journal, err error) error {
	if uerr := w.rollBack(j); uerr != nil {
		return fmt.Errorf("%w; and removing what it had staged failed: %v (the next etcdshapes run into %s removes it)", err, uerr, w.dir)
	}
	return err
}

// rollBack removes j's temporary files, the directories it created (when
// empty) and the journal.
func (w *writer) rollBack(j journal) error {
	var first error
	for _, jw := range j.Writes {
		fi, err := w.root.Lstat(jw.Temp)
		if errors.Is(err, fs.ErrNotExist) {
			continue
		}
		if err == nil && fi.Mode().IsRegular() {
			err = w.root.Remove(jw.Temp)
		}
		if err != nil && first == nil {
			first = fmt.Errorf("%s: %w", w.full(jw.Temp), unwrapPath(err))
		}
	}
	for i := len(j.Dirs) - 1; i >= 0; i-- {
		// Only an empty directory goes: one something else wrote into
		// since stays.
		if fi, err := w.root.Lstat(j.Dirs[i]); err == nil && fi.IsDir() {
			_ = w.root.Remove(j.Dirs[i])
		}
	}
	if first != nil {
		return first
	}
	return w.removeJournal()
}

// finish takes j, at its commit point, to its end: each temporary file
// renamed over its path, each stale file removed, the journal removed. A
// path that is no longer a regular file (or nothing) is left alone, its
// temporary file removed, and noted. It returns on the first error, with
// the journal in place.
func (w *writer) finish(j journal, writes []staged, removes []removal) ([]Note, error) {
	var left []Note
	for i, jw := range j.Writes {
		if err := w.step("rename", i+1); err != nil {
			return left, w.unfinished(fmt.Errorf("%s: %w", w.full(jw.Path), err))
		}
		fi, err := w.root.Lstat(jw.Temp)
		if errors.Is(err, fs.ErrNotExist) {
			// Renamed by the run this one finishes.
			if writes != nil {
				writes[i].done = true
			}
			continue
		}
		if err == nil && !fi.Mode().IsRegular() {
			err = errors.New("is not the regular file etcdshapes staged")
		}
		if err != nil {
			return left, w.unfinished(fmt.Errorf("%s: %w", w.full(jw.Temp), unwrapPath(err)))
		}
		// The last look before the rename: what is there now must still
		// be nothing or a regular file, below real directories.
		if why := w.cannotReplace(jw.Path); why != "" {
			_ = w.root.Remove(jw.Temp)
			left = append(left, Note{Path: jw.Path, Reason: why + " while etcdshapes was writing; it was left alone"})
			continue
		}
		if err := w.root.Rename(jw.Temp, jw.Path); err != nil {
			return left, w.unfinished(fmt.Errorf("%s: %w", w.full(jw.Path), unwrapPath(err)))
		}
		if writes != nil {
			writes[i].done = true
		}
	}
	for i, jr := range j.Removes {
		if err := w.step("remove", i+1); err != nil {
			return left, w.unfinished(fmt.Errorf("%s: %w", w.full(jr.Path), err))
		}
		fi, err := w.root.Lstat(jr.Path)
		if errors.Is(err, fs.ErrNotExist) {
			if removes != nil {
				removes[i].done = true
			}
			continue
		}
		if err != nil {
			return left, w.unfinished(fmt.Errorf("%s: %w", w.full(jr.Path), unwrapPath(err)))
		}
		if why := w.cannotReplace(jr.Path); why != "" || !fi.Mode().IsRegular() {
			if why == "" {
				why = "became " + kind(fi.Mode())
			}
			left = append(left, Note{Path: jr.Path, Reason: why + " while etcdshapes was writing; it was left alone"})
			continue
		}
		if removes == nil {
			// A recovery removes only the content that was found stale.
			data, rerr := w.readRegular(jr.Path, fi, MaxFileSize)
			if rerr != nil || jr.SHA256 == "" || hex.EncodeToString(sha256Of(data)) != jr.SHA256 {
				left = append(left, Note{Path: jr.Path, Reason: "changed since the interrupted run found it stale; it was left in place and forgotten"})
				continue
			}
		}
		if err := w.root.Remove(jr.Path); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return left, w.unfinished(fmt.Errorf("%s: %w", w.full(jr.Path), unwrapPath(err)))
		}
		if removes != nil {
			removes[i].done = true
		}
	}
	if err := w.step("journal done", 0); err != nil {
		return left, w.unfinished(fmt.Errorf("%s: %w", w.full(journalName), err))
	}
	if err := w.removeJournal(); err != nil {
		return left, w.unfinished(err)
	}
	w.syncDir(".")
	return left, nil
}

func sha256Of(b []byte) []byte {
	sum := sha256.Sum256(b)
	return sum[:]
}

// cannotReplace says why rel can no longer be replaced or removed (a
// symbolic link or a non-regular file there, or a directory above it that
// became one), or "".
func (w *writer) cannotReplace(rel string) string {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		d := strings.Join(parts[:i], "/")
		fi, err := w.root.Lstat(d)
		if err != nil || !fi.IsDir() {
			what := "vanished"
			if err == nil {
				what = "became " + kind(fi.Mode())
			}
			return w.full(d) + " " + what
		}
	}
	if fi, err := w.root.Lstat(rel); err == nil && !fi.Mode().IsRegular() {
		return "became " + kind(fi.Mode())
	}
	return ""
}

// writeJournal writes j as the journal: to journalNew, synced, renamed
// over journalName, the directory synced.
func (w *writer) writeJournal(j journal) error {
	name := "journal " + j.State
	if err := w.step(name, 0); err != nil {
		return fmt.Errorf("%s: %w", w.full(journalName), err)
	}
	data, err := json.Marshal(j)
	if err != nil {
		return err
	}
	_ = w.root.Remove(journalNew)
	f, err := w.root.OpenFile(journalNew, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("%s: %w", w.full(journalName), unwrapPath(err))
	}
	_, err = f.Write(append(data, '\n'))
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = w.root.Rename(journalNew, journalName)
	}
	if err != nil {
		_ = w.root.Remove(journalNew)
		return fmt.Errorf("%s: %w", w.full(journalName), unwrapPath(err))
	}
	w.syncDir(".")
	return nil
}

// removeJournal removes the journal (and a journal being written).
func (w *writer) removeJournal() error {
	for _, name := range []string{journalNew, journalName} {
		if err := w.root.Remove(name); err != nil && !errors.Is(err, fs.ErrNotExist) {
			return fmt.Errorf("%s: %w", w.full(name), unwrapPath(err))
		}
	}
	return nil
}

// syncDir makes the entries of the directory rel durable, where the
// platform can; a failure only weakens what a power cut leaves.
func (w *writer) syncDir(rel string) {
	if f, err := w.root.Open(rel); err == nil {
		_ = f.Sync()
		_ = f.Close()
	}
}

// recover deals with what an earlier Write into the directory left when it
// was killed or its machine went down: before its commit point, it undoes
// it (removes its temporary files); after, it finishes it. It says what it
// did, "" when there was nothing to do.
func (w *writer) recover() (string, error) {
	// A journal being written when the run died: the journal it was
	// to replace, if any, still holds.
	if fi, err := w.root.Lstat(journalNew); err == nil {
		if !fi.Mode().IsRegular() {
			return "", invalid.Errorf(Field, w.full(journalNew), "is %s, not a file etcdshapes writes; it never opens it, even with --force: move it away", kind(fi.Mode()))
		}
		if err := w.root.Remove(journalNew); err != nil {
			return "", fmt.Errorf("%s: %w", w.full(journalNew), unwrapPath(err))
		}
	}
	fi, err := w.root.Lstat(journalName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return "", nil
	case err != nil:
		return "", fmt.Errorf("%s: %w", w.full(journalName), unwrapPath(err))
	case !fi.Mode().IsRegular():
		return "", invalid.Errorf(Field, w.full(journalName), "is %s, not the journal etcdshapes writes; it never opens it, even with --force: move it away", kind(fi.Mode()))
	}
	data, err := w.readRegular(journalName, fi, maxJournalSize)
	if err != nil {
		return "", w.badJournal("cannot be read: %v", err)
	}
	j, err := w.parseJournal(data)
	if err != nil {
		return "", err
	}
	w.ours = map[string]bool{}
	for _, jw := range j.Writes {
		w.ours[jw.Path] = true
	}
	if j.State == stateStaging {
		if err := w.rollBack(j); err != nil {
			return "", err
		}
		return fmt.Sprintf("an earlier run into %s was interrupted before its commit point; its temporary files were removed, leaving the files as they were before it", w.dir), nil
	}
	left, err := w.finish(j, nil, nil)
	if err != nil {
		return "", err
	}
	msg := fmt.Sprintf("an earlier run into %s was interrupted after its commit point; it was finished first", w.dir)
	for _, n := range left {
		msg += fmt.Sprintf("; %s: %s", w.full(n.Path), n.Reason)
	}
	return msg, nil
}

// parseJournal reads a journal and checks every entry as Write checks a
// manifest's: clean relative paths inside the directory, temporary files
// named as Write names them, in their file's directory.
func (w *writer) parseJournal(data []byte) (journal, error) {
	var j journal
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&j); err != nil {
		return journal{}, w.badJournal("is not JSON etcdshapes writes: %v", err)
	}
	if j.Version != journalVersion || (j.State != stateStaging && j.State != stateCommit) {
		return journal{}, w.badJournal("has version %d and state %q, not version %d and %q or %q", j.Version, bounded(j.State), journalVersion, stateStaging, stateCommit)
	}
	for _, d := range j.Dirs {
		if rule := checkPath(d); rule != "" {
			return journal{}, w.badJournal("directory %q %s", bounded(d), rule)
		}
	}
	for _, jw := range j.Writes {
		if jw.Path != ManifestName {
			if rule := checkPath(jw.Path); rule != "" {
				return journal{}, w.badJournal("path %q %s", bounded(jw.Path), rule)
			}
		}
		base := path.Base(jw.Temp)
		if path.Dir(jw.Temp) != path.Dir(jw.Path) || !strings.HasPrefix(base, tempPrefix) || base == journalName || base == journalNew ||
			(path.Dir(jw.Temp) != "." && checkPath(path.Dir(jw.Temp)) != "") || strings.ContainsFunc(base, func(r rune) bool { return r < 0x20 || r == 0x7f || r == '\\' }) {
			return journal{}, w.badJournal("temporary file %q is not one etcdshapes names for %q", bounded(jw.Temp), bounded(jw.Path))
		}
	}
	for _, jr := range j.Removes {
		if rule := checkPath(jr.Path); rule != "" {
			return journal{}, w.badJournal("path %q %s", bounded(jr.Path), rule)
		}
		if b, err := hex.DecodeString(jr.SHA256); err != nil || (len(b) != 0 && len(b) != sha256.Size) {
			return journal{}, w.badJournal("SHA-256 %q of %q is not one", bounded(jr.SHA256), bounded(jr.Path))
		}
	}
	return j, nil
}

// badJournal refuses a journal etcdshapes cannot have written.
func (w *writer) badJournal(format string, args ...any) *invalid.Error {
	return invalid.Errorf(Field, w.full(journalName), "%s; etcdshapes cannot have written it, so it does not know what the run that left it changed: compare the directory with a fresh run into another one, then delete it", fmt.Sprintf(format, args...))
}
