package chartwrite

import (
	"bytes"
	"crypto/rand"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/etcdshapes/etcdshapes/invalid"
	"io"
	"io/fs"
	"os"
	"path"
	"path/filepath"
	"sort"
	"strings"
	"time"
)

// ManifestName is the manifest's file name in the directory Write writes.
const ManifestName = ".etcdshapes-generated"

// tempPrefix starts the names of the temporary files Write renames into
// place; generated paths may not use it.
const tempPrefix = ".etcdshapes-tmp-"

// Limits of what Write reads and writes.
const (
	// MaxFileSize bounds a generated file and any existing file Write
	// reads to compare; a larger existing file is not Write's own.
	MaxFileSize = 8 << 20
	// MaxManifestSize bounds the manifest Write reads.
	MaxManifestSize = 1 << 20
	// maxPathLen bounds a generated path or manifest entry.
	maxPathLen = 1024
)

// Field is the field every refusal names: the directory is the CLI's --out.
const Field = "out"

// File is one file to write: a relative, slash-separated path inside the
// directory and its content.
type File struct {
	// Path is relative to the directory and slash-separated.
	Path string
	// Data is the file's content.
	Data []byte
}

// Options are Write's options; the zero value refuses every file it did not
// write.
type Options struct {
	// Force replaces or removes regular files Write did not write or that
	// were edited since. It never follows or replaces a symbolic link,
	// never opens or replaces anything but a regular file and never writes
	// into another chart.
	Force bool
	// Marker, when set, is the text earlier generators put near the top of
	// the files they wrote before manifests existed. It only changes the
	// wording of a refusal in a directory without a manifest; it never makes
	// a file Write's own.
	Marker string
	// Partial says the files are some of the tree, not all of it (a
	// filtered render): a file the manifest lists that is not among them
	// is neither removed nor forgotten, whatever its state; it stays
	// listed, so that a later complete Write replaces or removes it.
	Partial bool
	// LockWait bounds how long Write waits for another Write into the same
	// directory to finish (LockName); zero means DefaultLockWait. Past it
	// Write changes nothing and returns an error naming the lock file.
	LockWait time.Duration
}

// Result says what Write did. Paths are relative to the directory, sorted.
type Result struct {
	// Written were created or replaced; Unchanged already had their content.
	Written, Unchanged []string
	// Removed were stale: Write's own, no longer generated.
	Removed []string
	// Left are stale manifest entries Write did not remove because they
	// are no longer a regular file it can touch; they are forgotten.
	Left []Note
	// ManifestCreated is true when the directory had no manifest before.
	ManifestCreated bool
}

// Note is a path Write left alone, and why.
type Note struct {
	Path string // relative to the directory
	// Reason says why Write left the path alone and what became of it.
	Reason string
}

// RefusedError lists every file Write refused to touch. When it is
// returned, Write has changed nothing.
type RefusedError struct {
	// Dir is the directory Write was asked to write.
	Dir string
	// Refusals are one error per refused file, each naming Field, the path and
	// the rule.
	Refusals []*invalid.Error
}

// Error lists the refusals, one a line.
func (e *RefusedError) Error() string {
	lines := make([]string, len(e.Refusals))
	for i, r := range e.Refusals {
		lines[i] = r.Error()
	}
	return strings.Join(lines, "\n")
}

// Unwrap returns the refusals, so errors.As finds the first *invalid.Error.
func (e *RefusedError) Unwrap() []error {
	errs := make([]error, len(e.Refusals))
	for i, r := range e.Refusals {
		errs[i] = r
	}
	return errs
}

// Write writes files into dir (created if missing) as the package
// documentation describes, then records them in dir's manifest.
func Write(dir string, files []File, o Options) (Result, error) {
	if err := checkFiles(files); err != nil {
		return Result{}, err
	}
	root, err := openOut(dir)
	if err != nil {
		return Result{}, err
	}
	defer root.Close()
	w := &writer{dir: dir, root: root, o: o, dirs: map[string]*problem{}}
	l, err := w.lock()
	if err != nil {
		return Result{}, err
	}
	defer l.unlock()
	return w.write(files)
}

type writer struct {
	dir  string
	root *os.Root
	o    Options
	// ours are the paths generated now or listed in the manifest: a
	// Chart.yaml among them does not make its directory another chart.
	ours map[string]bool
	// dirs caches checkDir's answers.
	dirs map[string]*problem
}

// existing is what is at a path before Write changes anything.
type existing struct {
	info     fs.FileInfo // nil when nothing is there
	data     []byte      // content, when info is a regular file within MaxFileSize
	tooLarge bool
}

func (w *writer) write(files []File) (Result, error) {
	manifest, listed, err := w.readManifest()
	if err != nil {
		return Result{}, err
	}
	haveManifest := manifest != nil
	w.ours = map[string]bool{}
	generated := map[string]bool{}
	for _, f := range files {
		w.ours[f.Path] = true
		generated[f.Path] = true
	}
	for p := range listed {
		w.ours[p] = true
	}

	var res Result
	var refusals []*invalid.Error
	var writes []File
	var modes []fs.FileMode
	sorted := append([]File(nil), files...)
	sort.Slice(sorted, func(i, j int) bool { return sorted[i].Path < sorted[j].Path })
	refused := map[string]bool{}
	refuse := func(e *invalid.Error) {
		if v := fmt.Sprint(e.Value); !refused[v] { // one refusal per directory
			refused[v] = true
			refusals = append(refusals, e)
		}
	}
	for _, f := range sorted {
		if p := w.checkParents(f.Path); p != nil && !p.gone {
			refuse(p.refusal())
			continue
		}
		ex, p := w.inspect(f.Path)
		if p != nil {
			refuse(p.refusal())
			continue
		}
		if ex.info == nil {
			writes, modes = append(writes, f), append(modes, 0o644)
			continue
		}
		if !ex.tooLarge && bytes.Equal(ex.data, f.Data) {
			res.Unchanged = append(res.Unchanged, f.Path)
			continue
		}
		sum, ok := listed[f.Path]
		if (ok && !ex.tooLarge && sha256.Sum256(ex.data) == sum) || w.o.Force {
			writes, modes = append(writes, f), append(modes, ex.info.Mode().Perm())
			continue
		}
		refuse(w.notOurs(f.Path, ex, ok, haveManifest, false))
	}

	var removes []string
	stale := make([]string, 0, len(listed))
	for p := range listed {
		if !generated[p] {
			stale = append(stale, p)
		}
	}
	sort.Strings(stale)
	// kept are the entries a partial Write carries over as they are.
	var kept map[string][sha256.Size]byte
	if w.o.Partial {
		kept = make(map[string][sha256.Size]byte, len(stale))
		for _, rel := range stale {
			if _, err := w.root.Lstat(rel); errors.Is(err, fs.ErrNotExist) {
				continue // already gone: forget it
			}
			kept[rel] = listed[rel]
		}
		stale = nil
	}
	for _, rel := range stale {
		if p := w.checkParents(rel); p != nil {
			if p.gone {
				continue
			}
			res.Left = append(res.Left, Note{rel, p.note(rel)})
			continue
		}
		ex, p := w.inspect(rel)
		switch {
		case p != nil:
			res.Left = append(res.Left, Note{rel, p.note(rel)})
		case ex.info == nil:
			// Already gone: forget it.
		case (!ex.tooLarge && sha256.Sum256(ex.data) == listed[rel]) || w.o.Force:
			removes = append(removes, rel)
		default:
			refuse(w.notOurs(rel, ex, true, true, true))
		}
	}
	if len(refusals) > 0 {
		return Result{}, &RefusedError{Dir: w.dir, Refusals: refusals}
	}

	for i, f := range writes {
		if err := w.replace(f.Path, f.Data, modes[i]); err != nil {
			return res, err
		}
		res.Written = append(res.Written, f.Path)
	}
	for _, rel := range removes {
		if err := w.remove(rel); err != nil {
			return res, err
		}
		res.Removed = append(res.Removed, rel)
	}
	next := formatManifest(sorted, kept)
	if !bytes.Equal(next, manifest) {
		if err := w.replace(ManifestName, next, 0o644); err != nil {
			return res, err
		}
	}
	res.ManifestCreated = !haveManifest
	return res, nil
}

// full is rel as a path the user can find: dir joined with rel.
func (w *writer) full(rel string) string {
	return filepath.Join(w.dir, filepath.FromSlash(rel))
}

// notOurs is the refusal of a regular file Write may not replace (stale:
// remove) without Force.
func (w *writer) notOurs(rel string, ex existing, listed, haveManifest, stale bool) *invalid.Error {
	verb, act := "replace", "move it away"
	if stale {
		verb, act = "remove", "delete or move it yourself"
	}
	var why string
	switch {
	case listed && stale:
		why = fmt.Sprintf("is no longer generated, but was edited since etcdshapes wrote it (its SHA-256 no longer matches %s)", ManifestName)
	case listed:
		why = fmt.Sprintf("was edited since etcdshapes wrote it (its SHA-256 no longer matches %s)", ManifestName)
	case !haveManifest && w.o.Marker != "" && !ex.tooLarge && bytes.Contains(head(ex.data), []byte(w.o.Marker)):
		why = fmt.Sprintf("carries the header of an earlier etcdshapes, which kept no record (%s) of what it wrote, so it may have been edited: compare it with the new output, then", ManifestName)
		return invalid.Errorf(Field, w.full(rel), "%s rerun with --force to %s it", why, verb)
	case haveManifest:
		why = fmt.Sprintf("exists and was not written by etcdshapes (%s does not list it)", ManifestName)
	default:
		why = fmt.Sprintf("exists and was not written by etcdshapes (the directory has no %s)", ManifestName)
	}
	return invalid.Errorf(Field, w.full(rel), "%s: %s, or rerun with --force to %s it", why, act, verb)
}

// head is the part of a file where a generator puts its header.
func head(data []byte) []byte {
	if len(data) > 512 {
		return data[:512]
	}
	return data
}

// problem is a path Write never touches, even with Force.
type problem struct {
	path string // relative to dir
	what string // "is a symbolic link", ...
	// hint says how to proceed, for a refusal.
	hint string
	// gone: a parent does not exist, so neither does the path (not a
	// problem for a write; a stale entry is forgotten).
	gone bool
	w    *writer
}

// refusal refuses a write because of p.
func (p *problem) refusal() *invalid.Error {
	return invalid.Errorf(Field, p.w.full(p.path), "%s; %s", p.what, p.hint)
}

// note says why the stale entry rel was left, because of p (at rel or at
// one of its directories).
func (p *problem) note(rel string) string {
	what := p.what
	if p.path != rel {
		what = fmt.Sprintf("%s %s", p.w.full(p.path), p.what)
	}
	return what + "; it is no longer generated, so etcdshapes left it in place and forgot it"
}

// checkParents checks every directory between dir and rel: each must be a
// real directory (not a symbolic link) and not another chart. A missing
// one is fine (it will be created) and ends the check with gone set.
func (w *writer) checkParents(rel string) *problem {
	parts := strings.Split(rel, "/")
	for i := 1; i < len(parts); i++ {
		d := strings.Join(parts[:i], "/")
		st, seen := w.dirs[d]
		if !seen {
			st = w.checkDir(d)
			w.dirs[d] = st
		}
		if st != nil {
			return st
		}
	}
	return nil
}

// checkDir checks one directory d (relative, below dir).
func (w *writer) checkDir(d string) *problem {
	fi, err := w.root.Lstat(d)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return &problem{path: d, gone: true, w: w}
	case err != nil:
		return &problem{path: d, what: "cannot be inspected: " + err.Error(), hint: "fix its permissions", w: w}
	case fi.Mode()&fs.ModeSymlink != 0:
		return &problem{path: d, what: "is a symbolic link" + w.target(d),
			hint: "etcdshapes never follows one, even with --force: replace it by a real directory, or choose another --out", w: w}
	case !fi.IsDir():
		return &problem{path: d, what: "is " + kind(fi.Mode()) + ", not a directory",
			hint: "etcdshapes never replaces it, even with --force: move it away", w: w}
	}
	for _, marker := range []string{"Chart.yaml", ManifestName} {
		m := d + "/" + marker
		if w.ours[m] {
			continue
		}
		if _, err := w.root.Lstat(m); err == nil {
			return &problem{path: d, what: "is another chart (it has its own " + marker + ")",
				hint: "etcdshapes never reads, writes or removes anything in another chart, even with --force: generate into that chart's own directory, or choose another --out", w: w}
		}
	}
	return nil
}

// target is " (-> TARGET)" for a symbolic link, for the messages.
func (w *writer) target(rel string) string {
	t, err := w.root.Readlink(rel)
	if err != nil {
		return ""
	}
	if len(t) > 200 {
		t = t[:200] + "…"
	}
	return fmt.Sprintf(" (to %q)", t)
}

// inspect reports what is at rel without following a symbolic link or
// opening anything but a regular file.
func (w *writer) inspect(rel string) (existing, *problem) {
	fi, err := w.root.Lstat(rel)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return existing{}, nil
	case err != nil:
		return existing{}, &problem{path: rel, what: "cannot be inspected: " + err.Error(), hint: "fix its permissions", w: w}
	case fi.Mode()&fs.ModeSymlink != 0:
		return existing{}, &problem{path: rel, what: "is a symbolic link" + w.target(rel),
			hint: "etcdshapes never follows or replaces one, even with --force: remove it (a generated file must be a regular file)", w: w}
	case !fi.Mode().IsRegular():
		return existing{}, &problem{path: rel, what: "is " + kind(fi.Mode()) + ", not a regular file",
			hint: "etcdshapes never opens or replaces it, even with --force: move it away", w: w}
	}
	if fi.Size() > MaxFileSize {
		return existing{info: fi, tooLarge: true}, nil
	}
	data, err := w.readRegular(rel, fi, MaxFileSize)
	if errors.Is(err, errTooLarge) {
		return existing{info: fi, tooLarge: true}, nil
	}
	if err != nil {
		return existing{}, &problem{path: rel, what: "cannot be read: " + err.Error(), hint: "fix it, or move it away", w: w}
	}
	return existing{info: fi, data: data}, nil
}

var errTooLarge = errors.New("too large")

// readRegular reads rel, which Lstat found to be the regular file fi, with
// a bound. It opens without blocking (a FIFO swapped in since the Lstat
// cannot hang it) and requires the opened file to be that same regular file.
func (w *writer) readRegular(rel string, fi fs.FileInfo, limit int64) ([]byte, error) {
	f, err := w.root.OpenFile(rel, openReadFlags, 0)
	if err != nil {
		return nil, err
	}
	defer f.Close()
	st, err := f.Stat()
	if err != nil {
		return nil, err
	}
	if !st.Mode().IsRegular() || !os.SameFile(fi, st) {
		return nil, errors.New("it changed while being read")
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, err
	}
	if int64(len(data)) > limit {
		return nil, errTooLarge
	}
	return data, nil
}

// kind names a file mode that is not a regular file.
func kind(m fs.FileMode) string {
	switch {
	case m&fs.ModeSymlink != 0:
		return "a symbolic link"
	case m.IsDir():
		return "a directory"
	case m&fs.ModeNamedPipe != 0:
		return "a FIFO (named pipe)"
	case m&fs.ModeSocket != 0:
		return "a socket"
	case m&fs.ModeCharDevice != 0:
		return "a character device"
	case m&fs.ModeDevice != 0:
		return "a block device"
	case m.IsRegular():
		return "a regular file"
	default:
		return "not a regular file (" + m.Type().String() + ")"
	}
}

// replace writes data to rel through a temporary file in the same
// directory renamed over it, creating the parent directories.
func (w *writer) replace(rel string, data []byte, perm fs.FileMode) error {
	d := path.Dir(rel)
	if d != "." {
		if err := w.root.MkdirAll(d, 0o755); err != nil {
			return fmt.Errorf("%s: %w", w.full(d), err)
		}
	}
	var rnd [8]byte
	if _, err := rand.Read(rnd[:]); err != nil {
		return err
	}
	tmp := path.Join(d, tempPrefix+hex.EncodeToString(rnd[:]))
	f, err := w.root.OpenFile(tmp, os.O_WRONLY|os.O_CREATE|os.O_EXCL, 0o600)
	if err != nil {
		return fmt.Errorf("%s: %w", w.full(rel), err)
	}
	_, err = f.Write(data)
	if err == nil {
		err = f.Chmod(perm)
	}
	if err == nil {
		err = f.Sync()
	}
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		// The last look before the rename: what is there now must still
		// be nothing or a regular file.
		if fi, lerr := w.root.Lstat(rel); lerr == nil && !fi.Mode().IsRegular() {
			err = invalid.Errorf(Field, w.full(rel), "became %s while etcdshapes was writing; it was left alone", kind(fi.Mode()))
		}
	}
	if err == nil {
		err = w.root.Rename(tmp, rel)
	}
	if err != nil {
		_ = w.root.Remove(tmp)
		var ne *invalid.Error
		if errors.As(err, &ne) {
			return err
		}
		return fmt.Errorf("%s: %w", w.full(rel), err)
	}
	return nil
}

// remove removes rel, a regular file inspect found.
func (w *writer) remove(rel string) error {
	if fi, err := w.root.Lstat(rel); err == nil && !fi.Mode().IsRegular() {
		return invalid.Errorf(Field, w.full(rel), "became %s while etcdshapes was writing; it was left alone", kind(fi.Mode()))
	}
	if err := w.root.Remove(rel); err != nil && !errors.Is(err, fs.ErrNotExist) {
		return fmt.Errorf("%s: %w", w.full(rel), err)
	}
	return nil
}

// openOut opens dir as the root of every operation, creating it when it
// does not exist. dir itself must be a directory, not a symbolic link.
func openOut(dir string) (*os.Root, error) {
	if dir == "" {
		return nil, invalid.Errorf(Field, dir, "must name a directory")
	}
	fi, err := os.Lstat(dir)
	if errors.Is(err, fs.ErrNotExist) {
		if err := os.MkdirAll(dir, 0o755); err != nil {
			return nil, err
		}
		fi, err = os.Lstat(dir)
	}
	if err != nil {
		return nil, err
	}
	switch {
	case fi.Mode()&fs.ModeSymlink != 0:
		t, _ := os.Readlink(dir)
		return nil, invalid.Errorf(Field, dir, "is a symbolic link (to %q); etcdshapes writes only into the directory named, never through a link: pass the directory itself", t)
	case !fi.IsDir():
		return nil, invalid.Errorf(Field, dir, "is %s, not a directory", kind(fi.Mode()))
	}
	root, err := os.OpenRoot(dir)
	if err != nil {
		return nil, err
	}
	st, err := root.Stat(".")
	if err != nil || !os.SameFile(fi, st) {
		root.Close()
		return nil, invalid.Errorf(Field, dir, "changed while etcdshapes opened it; run again")
	}
	return root, nil
}

// checkFiles refuses a file list Write cannot write safely: a path that is
// not clean and relative, a duplicate, a path that is both a file and a
// directory, a reserved name, a file above MaxFileSize.
func checkFiles(files []File) error {
	seen := make(map[string]int, len(files))
	for i, f := range files {
		field := fmt.Sprintf("files[%d].path", i)
		if rule := checkPath(f.Path); rule != "" {
			return invalid.Errorf(field, f.Path, "%s", rule)
		}
		if j, dup := seen[f.Path]; dup {
			return invalid.Errorf(field, f.Path, "duplicates files[%d]", j)
		}
		seen[f.Path] = i
		if len(f.Data) > MaxFileSize {
			return invalid.Errorf(fmt.Sprintf("files[%d].data", i), fmt.Sprintf("%d bytes", len(f.Data)), "must be at most %d bytes", MaxFileSize)
		}
	}
	for i, f := range files {
		for d := path.Dir(f.Path); d != "."; d = path.Dir(d) {
			if j, ok := seen[d]; ok {
				return invalid.Errorf(fmt.Sprintf("files[%d].path", j), d, "is a file, but files[%d] (%q) needs it to be a directory", i, f.Path)
			}
		}
	}
	return nil
}

// checkPath returns why p is not a path Write accepts, or "".
func checkPath(p string) string {
	const rule = "must be a clean relative slash-separated path inside the directory"
	switch {
	case p == "":
		return "must not be empty"
	case len(p) > maxPathLen:
		return fmt.Sprintf("must be at most %d bytes", maxPathLen)
	case strings.HasPrefix(p, "/"):
		return rule + " (not absolute)"
	case strings.ContainsRune(p, '\\'):
		return rule + " (no backslash)"
	case strings.ContainsFunc(p, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return rule + " (no control character)"
	case path.Clean(p) != p || p == "." || p == ".." || strings.HasPrefix(p, "../"):
		return rule + " (no \".\" or \"..\" element, no repeated or trailing slash)"
	}
	for _, el := range strings.Split(p, "/") {
		if el == ManifestName || el == LockName || strings.HasPrefix(el, tempPrefix) {
			return fmt.Sprintf("uses a name reserved for etcdshapes' own files (%s, %s, %s*)", ManifestName, LockName, tempPrefix)
		}
	}
	return ""
}
