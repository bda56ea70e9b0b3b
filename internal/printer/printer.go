// Package printer is etcdshapes.Marshal and its machinery (Marshal,
// MarshalObject, which the root package wraps), shared with the plan,
// which reads the desired objects as the printer's tree, and with
// internal/typedjson: the reusable per-goroutine State, the fast path
// through yamlemit, the clean-ups both paths apply, and the slow path
// through sigs.k8s.io/yaml.
package printer

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/invalid"
	"k8s.io/apimachinery/pkg/runtime"

	"github.com/etcdshapes/etcdshapes/internal/plainjson"
	"github.com/etcdshapes/etcdshapes/internal/yamlemit"
	"github.com/etcdshapes/etcdshapes/manifest"
	"sigs.k8s.io/yaml"
)

// State is the reusable memory of one marshalling goroutine: the
// tree keeps its capacity between objects, so printing a stack allocates
// little beyond the output.
type State struct {
	// Tree is the object being printed (or read by the plan).
	Tree yamlemit.Tree
	// PerDoc is the mean size of a document of the last stack printed,
	// for SizeHint.
	PerDoc int
	// Strs are strings the plan's trees share (see the plan's intern).
	Strs map[string]any
}

var statePool = sync.Pool{New: func() any { return &State{} }}

// Get takes a State from the pool; Put it back when done.
func Get() *State { return statePool.Get().(*State) }

// Put returns st to the pool.
func Put(st *State) { statePool.Put(st) }

// SizeHint is the bytes to allocate for a stack of n objects, from the
// mean document size of the last stack printed with st.
func (st *State) SizeHint(n int) int {
	if st.PerDoc == 0 {
		return 1024 * n
	}
	return (st.PerDoc + st.PerDoc/8) * n
}

// AppendObject appends o's document to dst. The fast path (yamlemit)
// prints the bytes sigs.k8s.io/yaml would; whatever it does not handle, and
// every error, goes through the slow path so both output and error messages
// stay exactly as they were.
func (st *State) AppendObject(dst []byte, o manifest.Object) ([]byte, error) {
	if out, err := st.AppendFast(dst, o); err == nil {
		return out, nil
	}
	// The slow path refuses some strings with an error that names no
	// field ("yaml: control characters are not allowed") and rewrites
	// others (a NEL becomes a space, invalid UTF-8 U+FFFD): a snapshot
	// key printed so lands under another key than the one restore names.
	if err := Faithful(o); err != nil {
		return nil, err
	}
	doc, err := MarshalSlow(o)
	if err != nil {
		return nil, err
	}
	return append(dst, doc...), nil
}

// AppendFast is the fast path; any error means "use the slow path".
func (st *State) AppendFast(dst []byte, o manifest.Object) ([]byte, error) {
	gvk := o.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" || gvk.Version == "" {
		return nil, yamlemit.ErrFallback
	}
	// An unstructured object reaches the tree through its MarshalJSON,
	// which has written invalid UTF-8 as U+FFFD before the tree sees it.
	if u, ok := o.(runtime.Unstructured); ok {
		if _, _, _, ok := findUnfaithful(u.UnstructuredContent(), ""); !ok {
			return nil, yamlemit.ErrFallback // see AppendObject
		}
	}
	t := &st.Tree
	if err := t.Encode(o); err != nil {
		return nil, err
	}
	root := t.Root()
	if t.Kind(root) != yamlemit.Map {
		return nil, yamlemit.ErrFallback
	}
	if t.Rewrote() {
		return nil, yamlemit.ErrFallback // see AppendObject
	}
	CleanTree(t, gvk.Group == "cert-manager.io" && gvk.Kind == "Certificate")
	return t.AppendYAML(dst)
}

// Faithful refuses an object holding a string (a value or a map key) that
// sigs.k8s.io/yaml's printer does not carry byte for byte
// (yamlemit.Unfaithful): never print another value than the object holds.
// The refusal names the field by its path in the object, and the object.
// It reads the object through its unstructured form, which keeps strings
// as they are (encoding/json would have rewritten invalid UTF-8 already).
func Faithful(o manifest.Object) error {
	content, err := runtime.DefaultUnstructuredConverter.ToUnstructured(o)
	if err != nil {
		return nil // the printer's own error says more
	}
	path, value, r, ok := findUnfaithful(content, "")
	if ok {
		return nil
	}
	what := fmt.Sprintf("%U", r)
	if r == utf8.RuneError {
		i, _ := yamlemit.Unfaithful(value)
		what = fmt.Sprintf("the invalid UTF-8 byte 0x%02x", value[i])
	}
	gvk := o.GetObjectKind().GroupVersionKind()
	ref := gvk.Kind + " " + strconv.Quote(o.GetName())
	if ns := o.GetNamespace(); ns != "" {
		ref = gvk.Kind + " " + strconv.Quote(ns+"/"+o.GetName())
	}
	return invalid.Errorf(path, value, "holds %s, which YAML cannot carry byte for byte (sigs.k8s.io/yaml refuses DEL, the C1 controls, U+FFFE and U+FFFF, reads a NEL as a line break, and encoding/json writes invalid UTF-8 as U+FFFD): %s would be printed with another value than it holds", what, ref)
}

// findUnfaithful walks v in sorted key order (the first refusal is the
// same on every run) for a string yamlemit.Unfaithful refuses. ok is true
// when there is none.
func findUnfaithful(v any, path string) (string, string, rune, bool) {
	switch t := v.(type) {
	case string:
		if i, r := yamlemit.Unfaithful(t); i >= 0 {
			return path, t, r, false
		}
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			p := joinPath(path, k)
			if i, r := yamlemit.Unfaithful(k); i >= 0 {
				return p, k, r, false
			}
			if p, s, r, ok := findUnfaithful(t[k], p); !ok {
				return p, s, r, false
			}
		}
	case []any:
		for i, e := range t {
			if p, s, r, ok := findUnfaithful(e, path+"["+strconv.Itoa(i)+"]"); !ok {
				return p, s, r, false
			}
		}
	}
	return "", "", 0, true
}

// joinPath is path.k, or path["k"] (quoted, escaped) for a key that is not
// a plain name.
func joinPath(path, k string) string {
	plain := k != ""
	for i := 0; i < len(k); i++ {
		c := k[i]
		if !(c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '-' || c == '_') {
			plain = false
			break
		}
	}
	switch {
	case !plain:
		return path + "[" + strconv.Quote(k) + "]"
	case path == "":
		return k
	}
	return path + "." + k
}

// CleanTree is toMap's clean-ups on the parsed tree; the two must stay in
// step (TestMarshalMatchesOldPath and FuzzMarshalObject compare them).
func CleanTree(t *yamlemit.Tree, certificate bool) {
	root := t.Root()
	if st, ok := t.Get(root, "status"); ok && isEmptyTreeNode(t, st) {
		t.Delete(root, "status")
	}
	for i := 0; i < t.Len(root); i++ {
		if k, v := t.Entry(root, i); string(k) != "metadata" {
			dropEmptyMetadataTree(t, v)
		}
	}
	if !certificate {
		return
	}
	spec, ok := t.Get(root, "spec")
	if !ok || t.Kind(spec) != yamlemit.Map {
		return
	}
	for _, k := range []string{"duration", "renewBefore"} {
		if d, ok := t.Get(spec, k); ok && t.Kind(d) == yamlemit.String {
			t.SetString(d, shortDurationBytes(t.Text(d)))
		}
	}
	if _, set := t.Get(spec, "isCA"); !set {
		if dns, ok := t.Get(spec, "dnsNames"); ok && t.Kind(dns) == yamlemit.List && t.Len(dns) > 0 {
			t.AddBool(spec, "isCA", false)
		}
	}
}

func dropEmptyMetadataTree(t *yamlemit.Tree, n yamlemit.Node) {
	switch t.Kind(n) {
	case yamlemit.Map:
		if md, ok := t.Get(n, "metadata"); ok && t.Kind(md) == yamlemit.Map && t.Len(md) == 0 {
			t.Delete(n, "metadata")
		}
		for i := 0; i < t.Len(n); i++ {
			_, c := t.Entry(n, i)
			dropEmptyMetadataTree(t, c)
		}
	case yamlemit.List:
		for i := 0; i < t.Len(n); i++ {
			dropEmptyMetadataTree(t, t.Item(n, i))
		}
	}
}

// MarshalSlow is the original printer: the object's JSON read into maps,
// cleaned by toMap, and printed by sigs.k8s.io/yaml. It is the reference
// the fast path is tested against and what prints anything it refuses.
func MarshalSlow(o manifest.Object) ([]byte, error) {
	m, err := toMap(o)
	if err != nil {
		return nil, err
	}
	return yaml.Marshal(m)
}

// toMap is the object's JSON form with the serializer's clean-ups applied.
func toMap(o manifest.Object) (map[string]any, error) {
	gvk := o.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" || gvk.Version == "" {
		return nil, fmt.Errorf("etcdshapes: %T %q has no apiVersion/kind set", o, o.GetName())
	}
	raw, err := json.Marshal(o)
	if err != nil {
		return nil, fmt.Errorf("etcdshapes: marshal %s %q: %w", gvk.Kind, o.GetName(), err)
	}
	// Numbers are kept as written: a float64 would round an int64 above
	// 2^53 (a quota of a size in the PiB) and print another value.
	var m map[string]any
	if err := plainjson.Decode(raw, &m); err != nil {
		return nil, err
	}
	// Builders never set status; typed structs still print their zero
	// status (e.g. a Service's "loadBalancer: {}").
	if st, ok := m["status"].(map[string]any); ok && isEmptyTree(st) {
		delete(m, "status")
	}
	for k, v := range m {
		if k != "metadata" {
			dropEmptyMetadata(v)
		}
	}
	if gvk.Group == "cert-manager.io" && gvk.Kind == "Certificate" {
		if spec, ok := m["spec"].(map[string]any); ok {
			for _, k := range []string{"duration", "renewBefore"} {
				if d, ok := spec[k].(string); ok {
					spec[k] = shortDuration(d)
				}
			}
			// cert-manager's isCA is omitempty; the charts state it on
			// serving certificates, so print false there too.
			if _, set := spec["isCA"]; !set && len(asList(spec["dnsNames"])) > 0 {
				spec["isCA"] = false
			}
		}
	}
	return m, nil
}

// dropEmptyMetadata removes the "metadata: {}" that typed pod and job
// templates carry when they set no labels.
func dropEmptyMetadata(v any) {
	switch t := v.(type) {
	case map[string]any:
		if md, ok := t["metadata"].(map[string]any); ok && len(md) == 0 {
			delete(t, "metadata")
		}
		for _, c := range t {
			dropEmptyMetadata(c)
		}
	case []any:
		for _, c := range t {
			dropEmptyMetadata(c)
		}
	}
}

// isEmptyTree reports whether a map holds nothing but empty maps.
func isEmptyTree(m map[string]any) bool {
	for _, v := range m {
		c, ok := v.(map[string]any)
		if !ok || !isEmptyTree(c) {
			return false
		}
	}
	return true
}

// isEmptyTreeNode is isEmptyTree on the parsed tree.
func isEmptyTreeNode(t *yamlemit.Tree, n yamlemit.Node) bool {
	if t.Kind(n) != yamlemit.Map {
		return false
	}
	for i := 0; i < t.Len(n); i++ {
		if _, c := t.Entry(n, i); !isEmptyTreeNode(t, c) {
			return false
		}
	}
	return true
}

func asList(v any) []any {
	l, _ := v.([]any)
	return l
}

// shortDuration drops the zero minutes and seconds time.Duration.String
// appends: "87600h0m0s" → "87600h", "1h30m0s" → "1h30m".
func shortDuration(d string) string {
	if strings.HasSuffix(d, "m0s") {
		d = strings.TrimSuffix(d, "0s")
	}
	if strings.HasSuffix(d, "h0m") {
		d = strings.TrimSuffix(d, "0m")
	}
	return d
}

// shortDurationBytes is shortDuration without converting to a string; the
// result is a prefix of d.
func shortDurationBytes(d []byte) []byte {
	if bytes.HasSuffix(d, []byte("m0s")) {
		d = d[:len(d)-2]
	}
	if bytes.HasSuffix(d, []byte("h0m")) {
		d = d[:len(d)-2]
	}
	return d
}
