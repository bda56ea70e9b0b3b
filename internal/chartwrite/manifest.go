package chartwrite

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"github.com/etcdshapes/etcdshapes/invalid"
	"io/fs"
	"path"
	"sort"
	"strings"
)

// manifestHeader opens every manifest: what it is, for the person who finds
// it in a chart.
const manifestHeader = `# Written by etcdshapes: the files it generated in this directory and
# their SHA-256 (check with: sha256sum -c ` + ManifestName + `).
# etcdshapes replaces or removes only the files listed here whose content
# still has this hash; it refuses any other file unless run with --force.
# Do not edit. Deleting it makes etcdshapes treat every existing file as yours.
`

// ownerPrefix starts the manifest's line naming the command whose files it
// lists (Options.Owner): "# owner: etcdshapes render etcd tenant-root/etcd".
const ownerPrefix = "# owner: etcdshapes "

// maxOwnerLen bounds Options.Owner.
const maxOwnerLen = 200

// formatManifest is the manifest of files and of the entries kept (a
// partial Write's, with their recorded hashes), sorted by path: the
// header, the owner's line when there is an owner, then "<sha256 hex>
// <path>" per file, like sha256sum.
func formatManifest(owner string, files []File, kept map[string][sha256.Size]byte) []byte {
	type entry struct {
		path string
		sum  [sha256.Size]byte
	}
	entries := make([]entry, 0, len(files)+len(kept))
	for _, f := range files {
		entries = append(entries, entry{f.Path, sha256.Sum256(f.Data)})
	}
	for p, sum := range kept {
		entries = append(entries, entry{p, sum})
	}
	sort.Slice(entries, func(i, j int) bool { return entries[i].path < entries[j].path })
	var b bytes.Buffer
	b.WriteString(manifestHeader)
	if owner != "" {
		b.WriteString(ownerPrefix + owner + "\n")
	}
	for _, e := range entries {
		b.WriteString(hex.EncodeToString(e.sum[:]))
		b.WriteString("  ")
		b.WriteString(e.path)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// manifest is what readManifest read.
type manifest struct {
	// data is the manifest's bytes, nil when there is none.
	data []byte
	// listed is the hash of each listed path.
	listed map[string][sha256.Size]byte
	// owner is what its owner's line names; hasOwner is false for a
	// manifest written before owners were recorded.
	owner    string
	hasOwner bool
}

// readManifest reads dir's manifest; none is the zero manifest.
func (w *writer) readManifest() (manifest, error) {
	fi, err := w.root.Lstat(ManifestName)
	switch {
	case errors.Is(err, fs.ErrNotExist):
		return manifest{}, nil
	case err != nil:
		return manifest{}, err
	case fi.Mode()&fs.ModeSymlink != 0:
		return manifest{}, invalid.Errorf(Field, w.full(ManifestName), "is a symbolic link%s; etcdshapes never follows one, even with --force: replace it by the real manifest, or delete it (then etcdshapes treats every existing file as yours)", w.target(ManifestName))
	case !fi.Mode().IsRegular():
		return manifest{}, invalid.Errorf(Field, w.full(ManifestName), "is %s, not the regular file etcdshapes writes; it never opens it, even with --force: move it away", kind(fi.Mode()))
	case fi.Size() > MaxManifestSize:
		return manifest{}, w.badManifest("is larger than %d bytes", MaxManifestSize)
	}
	data, err := w.readRegular(ManifestName, fi, MaxManifestSize)
	if errors.Is(err, errTooLarge) {
		return manifest{}, w.badManifest("is larger than %d bytes", MaxManifestSize)
	}
	if err != nil {
		return manifest{}, fmt.Errorf("%s: %w", w.full(ManifestName), err)
	}
	listed, owner, hasOwner, err := w.parseManifest(data)
	if err != nil {
		return manifest{}, err
	}
	if data == nil {
		data = []byte{}
	}
	return manifest{data: data, listed: listed, owner: owner, hasOwner: hasOwner}, nil
}

// parseManifest parses a manifest: "#" comments (one of them, at most,
// the owner's line), blank lines and one "<sha256 hex>  <path>" line per
// file, each path a clean relative path listed once.
func (w *writer) parseManifest(data []byte) (listed map[string][sha256.Size]byte, owner string, hasOwner bool, err error) {
	listed = map[string][sha256.Size]byte{}
	lines := strings.Split(string(data), "\n")
	if lines[len(lines)-1] == "" {
		lines = lines[:len(lines)-1]
	}
	for i, line := range lines {
		n := i + 1
		if o, ok := strings.CutPrefix(line, ownerPrefix); ok {
			if hasOwner {
				return nil, "", false, w.badManifest("line %d names its owner again", n)
			}
			owner, hasOwner = o, true
			continue
		}
		if line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		sumHex, p, ok := strings.Cut(line, "  ")
		var sum [sha256.Size]byte
		if !ok || len(sumHex) != hex.EncodedLen(sha256.Size) || strings.ToLower(sumHex) != sumHex {
			return nil, "", false, w.badManifest("line %d is not \"<sha256 in lowercase hex>  <path>\"", n)
		}
		if _, err := hex.Decode(sum[:], []byte(sumHex)); err != nil {
			return nil, "", false, w.badManifest("line %d is not \"<sha256 in lowercase hex>  <path>\"", n)
		}
		if rule := checkPath(p); rule != "" {
			return nil, "", false, w.badManifest("line %d: path %q %s", n, bounded(p), rule)
		}
		if _, dup := listed[p]; dup {
			return nil, "", false, w.badManifest("line %d lists %q again", n, p)
		}
		listed[p] = sum
	}
	for p := range listed {
		for d := path.Dir(p); d != "."; d = path.Dir(d) {
			if _, ok := listed[d]; ok {
				return nil, "", false, w.badManifest("lists %q both as a file and as the directory of %q", d, p)
			}
		}
	}
	return listed, owner, hasOwner, nil
}

// badManifest refuses a manifest etcdshapes cannot have written.
func (w *writer) badManifest(format string, args ...any) *invalid.Error {
	return invalid.Errorf(Field, w.full(ManifestName), "%s; etcdshapes cannot have written it: restore it, or delete it (then etcdshapes treats every existing file as yours)", fmt.Sprintf(format, args...))
}

// bounded shortens s for a message.
func bounded(s string) string {
	if len(s) > 100 {
		return s[:100] + "…"
	}
	return s
}
