package chartwrite

import (
	"bytes"
	"context"
	"crypto/sha256"
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
	// Owner names the command whose files the directory holds, as the
	// user would type it after "etcdshapes " ("render etcd
	// tenant-root/etcd", "gen chart --library"); the manifest records it
	// ("# owner: etcdshapes ..."). A manifest that records another owner
	// is refused, even with Force: the two commands' files would each be
	// stale to the other, and each run would remove the other's. At most
	// 200 bytes without control characters.
	Owner string
	// Adopts says, for a manifest from before owners were recorded (no
	// owner's line), whether its listed paths (sorted) can be this
	// owner's files; one it does not adopt is refused as Owner's
	// mismatch is. nil adopts every such manifest.
	Adopts func(paths []string) bool
	// Approve, when set, is shown what Write is about to replace and
	// remove once every path passed its checks and before anything
	// changes; an error from it is returned as it is, and nothing
	// changes. It is not called when nothing would be replaced or removed.
	Approve func(Plan) error
}

// Plan is what a Write is about to replace and remove, for
// Options.Approve. Paths are sorted.
type Plan struct {
	// Replaced are the existing files a Write replaces, with their
	// current content.
	Replaced []Existing
	// Removed are the stale files it removes, with their content.
	Removed []Existing
}

// Existing is a file as a Write found it.
type Existing struct {
	Path string // relative to the directory
	// Data is its content; nil when it is larger than MaxFileSize (only
	// Force replaces or removes such a file).
	Data []byte
}

// InterruptedError is returned by a WriteContext whose context was done
// before its commit point: it changed nothing, and removed whatever it had
// staged.
type InterruptedError struct {
	// Dir is the directory the Write was asked to write.
	Dir string
	// Cause is the context's cause (context.Cause), e.g. the signal.
	Cause error
}

// Error says the Write was interrupted and changed nothing.
func (e *InterruptedError) Error() string {
	return fmt.Sprintf("interrupted (%v) before anything was written to %s; nothing changed there", e.Cause, e.Dir)
}

// Unwrap returns the cause.
func (e *InterruptedError) Unwrap() error { return e.Cause }

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
	// Recovered says what Write did first about an earlier Write into the
	// directory that was killed (or lost its machine) midway: "" when
	// there was none (see the package documentation, "All or nothing").
	Recovered string
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
// documentation describes, then records them in dir's manifest. It is
// WriteContext without a context.
func Write(dir string, files []File, o Options) (Result, error) {
	return WriteContext(context.Background(), dir, files, o)
}

// WriteContext is Write, stopped by ctx: cancelled while it waits for the
// lock, reads or stages the files, it removes what it staged and returns
// an *InterruptedError, having changed nothing; cancelled after its commit
// point, it finishes (renames and removals, which take no new space) and
// returns what it did. ctx is how a command stops a Write on SIGINT or
// SIGTERM without leaving a temporary file or half a set of files.
func WriteContext(ctx context.Context, dir string, files []File, o Options) (Result, error) {
	if err := checkFiles(files); err != nil {
		return Result{}, err
	}
	if err := checkOwner(o.Owner); err != nil {
		return Result{}, err
	}
	root, err := openOut(dir)
	if err != nil {
		return Result{}, err
	}
	defer root.Close()
	w := &writer{dir: dir, root: root, o: o, dirs: map[string]*problem{}, ctx: ctx}
	l, err := w.lock()
	if err != nil {
		return Result{}, err
	}
	defer l.unlock()
	recovered, err := w.recover()
	if err != nil {
		return Result{}, err
	}
	res, err := w.write(files)
	res.Recovered = recovered
	return res, err
}

type writer struct {
	dir  string
	root *os.Root
	o    Options
	ctx  context.Context
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
	m, err := w.readManifest()
	if err != nil {
		return Result{}, err
	}
	if e := w.otherOwner(m); e != nil {
		return Result{}, &RefusedError{Dir: w.dir, Refusals: []*invalid.Error{e}}
	}
	if err := w.interrupted(); err != nil {
		return Result{}, err
	}
	listed := m.listed
	haveManifest := m.data != nil
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
	var writes []staged
	var plan Plan
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
			writes = append(writes, staged{path: f.Path, data: f.Data, perm: 0o644})
			continue
		}
		if !ex.tooLarge && bytes.Equal(ex.data, f.Data) {
			res.Unchanged = append(res.Unchanged, f.Path)
			continue
		}
		sum, ok := listed[f.Path]
		if (ok && !ex.tooLarge && sha256.Sum256(ex.data) == sum) || w.o.Force {
			writes = append(writes, staged{path: f.Path, data: f.Data, perm: ex.info.Mode().Perm()})
			plan.Replaced = append(plan.Replaced, Existing{Path: f.Path, Data: ex.data})
			continue
		}
		refuse(w.notOurs(f.Path, ex, ok, haveManifest, false))
	}

	var removes []removal
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
			r := removal{path: rel}
			if !ex.tooLarge {
				r.sum = sha256.Sum256(ex.data)
				r.known = true
			}
			removes = append(removes, r)
			plan.Removed = append(plan.Removed, Existing{Path: rel, Data: ex.data})
		default:
			refuse(w.notOurs(rel, ex, true, true, true))
		}
	}
	if len(refusals) > 0 {
		return Result{}, &RefusedError{Dir: w.dir, Refusals: refusals}
	}

	next := formatManifest(w.o.Owner, sorted, kept)
	manifestChanged := !bytes.Equal(next, m.data)
	if len(writes) == 0 && len(removes) == 0 && !manifestChanged {
		res.ManifestCreated = false
		return res, nil
	}
	if w.o.Approve != nil && (len(plan.Replaced) > 0 || len(plan.Removed) > 0) {
		if err := w.o.Approve(plan); err != nil {
			return Result{}, err
		}
	}
	if manifestChanged {
		writes = append(writes, staged{path: ManifestName, data: next, perm: 0o644})
	}
	left, err := w.commit(writes, removes)
	res.Left = append(res.Left, left...)
	for _, s := range writes {
		if s.path != ManifestName && s.done {
			res.Written = append(res.Written, s.path)
		}
	}
	for _, r := range removes {
		if r.done {
			res.Removed = append(res.Removed, r.path)
		}
	}
	if err != nil {
		return res, err
	}
	res.ManifestCreated = !haveManifest
	return res, nil
}

// otherOwner refuses a manifest that records another command's files (see
// Options.Owner), or one from before owners were recorded that
// Options.Adopts does not take for this command's.
func (w *writer) otherOwner(m manifest) *invalid.Error {
	const never = "etcdshapes never writes into another command's directory, even with --force: write into a directory of its own, or empty this one first"
	switch {
	case m.data == nil:
		return nil
	case m.hasOwner && m.owner != w.o.Owner:
		return invalid.Errorf(Field, w.full(ManifestName), "records the files of 'etcdshapes %s', not of 'etcdshapes %s': this run would remove them as stale, and the other would remove this run's; %s",
			bounded(m.owner), w.o.Owner, never)
	case !m.hasOwner && w.o.Adopts != nil:
		paths := make([]string, 0, len(m.listed))
		for p := range m.listed {
			paths = append(paths, p)
		}
		sort.Strings(paths)
		if w.o.Adopts(paths) {
			return nil
		}
		return invalid.Errorf(Field, w.full(ManifestName), "was written by an earlier etcdshapes for another command than 'etcdshapes %s' (it records no owner, and lists %s): this run would remove those files as stale; %s",
			w.o.Owner, listSome(paths), never)
	}
	return nil
}

// listSome names the first few paths, for a message.
func listSome(paths []string) string {
	const most = 3
	switch {
	case len(paths) == 0:
		return "no file"
	case len(paths) <= most:
		return strings.Join(paths, ", ")
	}
	return fmt.Sprintf("%s and %d more", strings.Join(paths[:most], ", "), len(paths)-most)
}

// checkOwner refuses an owner the manifest's line cannot hold.
func checkOwner(owner string) error {
	switch {
	case len(owner) > maxOwnerLen:
		return invalid.Errorf("owner", owner, "must be at most %d bytes", maxOwnerLen)
	case strings.ContainsFunc(owner, func(r rune) bool { return r < 0x20 || r == 0x7f }):
		return invalid.Errorf("owner", owner, "must hold no control character")
	}
	return nil
}

// interrupted is the error of a Write whose context is done, or nil.
func (w *writer) interrupted() error {
	if w.ctx.Err() == nil {
		return nil
	}
	return &InterruptedError{Dir: w.dir, Cause: context.Cause(w.ctx)}
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
