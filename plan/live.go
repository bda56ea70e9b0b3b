package plan

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"slices"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/internal/printer"
	"github.com/etcdshapes/etcdshapes/internal/typedjson"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/kamaji"
	"github.com/etcdshapes/etcdshapes/manifest"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/internal/jsontree"
	"github.com/etcdshapes/etcdshapes/internal/numpath"
	"github.com/etcdshapes/etcdshapes/internal/plainjson"
	"github.com/etcdshapes/etcdshapes/internal/yamlemit"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/runtime/schema"
	utilyaml "k8s.io/apimachinery/pkg/util/yaml"
)

// Limits of the live data ReadObjects reads, checked before any document
// of it is parsed.
const (
	// MaxBytes bounds the live data ReadObjects reads: 64 MiB.
	MaxBytes = inputlimit.MaxLiveBytes
	// MaxNodes bounds the nodes of the live data, all its documents
	// together: 2,500,000 (YAML nodes, or JSON values), what `kubectl
	// get -o yaml --show-managed-fields` prints for some 5,000 Pods.
	MaxNodes = inputlimit.MaxLiveNodes
	// MaxDocuments bounds the documents of the live data, empty ones
	// counted: 20,000 (kubectl get prints one object or List a call).
	MaxDocuments = inputlimit.MaxLiveDocuments
)

// Kinds the plan reads from live objects besides the stack's own.
var (
	// kamajiControlPlaneKind is kamaji.ControlPlaneKind's group and kind.
	kamajiControlPlaneKind = kamaji.ControlPlaneKind.GroupKind()
	etcdClusterKind        = schema.GroupKind{Group: "etcd-operator.cozystack.io", Kind: "EtcdCluster"}
	dataStoreKind          = schema.GroupKind{Group: "kamaji.clastix.io", Kind: "DataStore"}
)

// ReadObjects reads objects as `kubectl get -o yaml` (or -o json) prints
// them: one object, a List of objects, or several YAML documents of
// either. Empty documents are skipped. The objects are
// *unstructured.Unstructured, ready for Compute and LiveStateFromObjects.
//
// Data over MaxBytes (64 MiB) is refused unparsed, and so is data of more
// than MaxDocuments (20,000) documents, empty ones counted, or of more
// than MaxNodes (2,500,000) nodes in all its documents together, counted
// in one pass over each before any is parsed (YAML: scalars, lists and
// maps, once expanded where aliases repeat a node; JSON: values); so the
// whole file costs at most what one document at the limit does, and
// docs/limits.md states what that is.
//
// A number that a decoder would read as another number (a negative zero;
// but for an integer that fits an int64, which is read as one, a number
// too close to zero or too large for a float64, or of more significant
// digits than a float64 holds: 1e-400 reads as 0, 3.0000000000000000001
// as 3) is refused, anywhere in a document, naming its field and quoting
// it as written: the API server never prints one, and the plan would
// judge the number it reads instead. JSON that is not UTF-8 is refused
// too (a decoder rewrites such bytes as U+FFFD); YAML's parser refuses it.
//
// A document is read as the API server's strict decoding reads it: a key
// given twice in one map, at any depth (also through a YAML << merge key,
// whose keys are otherwise merged), is refused, where a lenient reader
// keeps the later one; so are two keys that are one JSON key (1 and "1").
// Two kubectl get outputs appended without a line --- between them are
// one document holding every top-level key twice, so this is what refuses
// them. A document holding more than one value (a YAML document after a
// "..." end marker, two JSON values), and a List with a field beside
// apiVersion, kind, metadata and items or a kind not ending in "List", are
// refused too. Keys of different case are different keys.
//
// Every field the plan reads is checked: a malformed one (a numeric
// apiVersion, a name that is not a string, managedFields that are not
// field sets, a storage size that is not a quantity, ...) is a
// *invalid.Error naming it by its position, e.g.
// "live[0].items[3].metadata.managedFields[0].fieldsV1", and quoting
// the value as given (cut to 80 bytes). A key given twice is named so too
// ("live[0].metadata.labels.app", the key as the value), with the lines
// of both, counted from the start of data. An object given twice (one
// group, kind, namespace and name) is refused at its second place, naming
// the first ("first at live[0].items[0]").
// So is the apiVersion or kind of an object of a kind the stacks emit (or
// a KamajiControlPlane) spelled with another case or with whitespace
// around it ("etcdcluster", "EtcdCluster "), which kubectl never prints:
// read as it is, it would match nothing.
func ReadObjects(data []byte) ([]etcdshapes.Object, error) {
	docs, err := liveDocuments(data)
	if err != nil {
		return nil, err
	}
	var out []etcdshapes.Object
	// seen is where each object is first, to name it beside a duplicate
	// (the plan refuses one, but by its place among the objects read, not
	// the file's).
	seen := map[objectKey]string{}
	dup := func(at string, in *inspected) error {
		if first, ok := seen[in.key]; ok {
			return invalid.Errorf(at, in.ref.String(), "must not appear twice (first at %s)", first)
		}
		seen[in.key] = at
		return nil
	}
	for doc, d := range docs {
		field := "live[" + strconv.Itoa(doc) + "]"
		raw := d.raw
		v, err := readDocument(field, raw, d.line)
		if err != nil {
			return nil, err
		}
		if v == nil {
			continue
		}
		m, ok := v.(map[string]any)
		if !ok {
			return nil, invalid.Errorf(field, inputlimit.FirstLine(raw), "must be a Kubernetes object or List (a map with apiVersion and kind)")
		}
		items, isList := m["items"]
		if !isList {
			in, err := inspect(field, m)
			if err != nil {
				return nil, err
			}
			if err := dup(field, in); err != nil {
				return nil, err
			}
			out = append(out, &unstructured.Unstructured{Object: m})
			continue
		}
		if err := checkList(field, m); err != nil {
			return nil, err
		}
		list, ok := items.([]any)
		if !ok && items != nil {
			return nil, invalid.Errorf(field+".items", shown(items), "must be a list of objects")
		}
		// A typed list (SecretList) may leave its items' apiVersion and
		// kind out, as the API server does; they are the list's.
		listKind, _ := m["kind"].(string)
		listAPIVersion, _ := m["apiVersion"].(string)
		itemKind := strings.TrimSuffix(listKind, "List")
		for i, it := range list {
			at := field + ".items[" + strconv.Itoa(i) + "]"
			item, ok := it.(map[string]any)
			if !ok {
				return nil, invalid.Errorf(at, shown(it), "must be a Kubernetes object (a map with apiVersion and kind)")
			}
			if _, hasKind := item["kind"]; !hasKind && item["apiVersion"] == nil && itemKind != "" && itemKind != listKind {
				item["kind"], item["apiVersion"] = itemKind, listAPIVersion
			}
			in, err := inspect(at, item)
			if err != nil {
				return nil, err
			}
			if err := dup(at, in); err != nil {
				return nil, err
			}
			out = append(out, &unstructured.Unstructured{Object: item})
		}
	}
	return out, nil
}

// liveDocument is one document of live data and the line it starts on.
type liveDocument struct {
	raw  []byte
	line int
}

// liveDocuments splits data into its documents and checks every one
// (checkLiveDocument) and the stream as a whole (inputlimit.Stream: the
// documents' number, empty ones counted, and their nodes together)
// before any is parsed: a file of many documents within the limit of one
// (896,264 documents of three lines, 16 million empty ones) cost half a
// minute of CPU and 2 GB before, as parsing each costs a decoder's setup.
func liveDocuments(data []byte) ([]liveDocument, error) {
	if err := inputlimit.Live.CheckSize(data); err != nil {
		return nil, invalid.Errorf("live", inputlimit.FirstLine(data), "%v", err)
	}
	if err := inputlimit.Live.CheckDocuments(data); err != nil {
		return nil, invalid.Errorf("live", inputlimit.FirstLine(data), "%v: kubectl get prints one object or one List a call", err)
	}
	r := newDocReader(data)
	stream := inputlimit.Stream{Limits: inputlimit.Live}
	var docs []liveDocument
	// line is the line of data the next document starts on: the reader
	// returns a document without the line --- that ends it.
	line := 1
	for doc := 0; ; doc++ {
		raw, err := r.read()
		if errors.Is(err, io.EOF) {
			return docs, nil
		}
		field := "live[" + strconv.Itoa(doc) + "]"
		if err != nil {
			return nil, invalid.Errorf(field, "", "must be YAML: %v", err)
		}
		nodes, err := checkLiveDocument(field, raw)
		if err != nil {
			return nil, err
		}
		if err := stream.Document(nodes); err != nil {
			return nil, invalid.Errorf("live", inputlimit.FirstLine(data), "%v", err)
		}
		docs = append(docs, liveDocument{raw: raw, line: line})
		line += bytes.Count(raw, []byte("\n")) + 1
	}
}

// docReader splits a live file into YAML documents as apimachinery's
// YAMLReader does (a line that starts with "---" ends a document; only
// spaces and a comment may follow it), but as slices of the data instead
// of copies of every line, so that a file of millions of lines costs no
// allocation before its limits are checked. Data with a carriage return
// goes through YAMLReader itself, which drops the one before each line
// feed.
type docReader struct {
	data []byte
	yaml *utilyaml.YAMLReader
}

func newDocReader(data []byte) *docReader {
	if bytes.IndexByte(data, '\r') >= 0 {
		return &docReader{yaml: utilyaml.NewYAMLReader(bufio.NewReader(bytes.NewReader(data)))}
	}
	return &docReader{data: data}
}

// read returns the next document, io.EOF after the last.
func (r *docReader) read() ([]byte, error) {
	if r.yaml != nil {
		return r.yaml.Read()
	}
	for pos := 0; pos < len(r.data); {
		end := bytes.IndexByte(r.data[pos:], '\n')
		next := len(r.data)
		line := r.data[pos:]
		if end >= 0 {
			line, next = r.data[pos:pos+end], pos+end+1
		}
		if rest, ok := bytes.CutPrefix(line, []byte("---")); ok {
			if trimmed := bytes.TrimSpace(rest); len(trimmed) > 0 && trimmed[0] != '#' {
				return nil, fmt.Errorf("invalid Yaml document separator: %s", trimmed)
			}
			if pos > 0 {
				doc := r.data[:pos]
				r.data = r.data[pos:][len(line):]
				if len(r.data) > 0 {
					r.data = r.data[1:] // the separator's line feed
				}
				return doc, nil
			}
		}
		pos = next
	}
	if len(r.data) == 0 {
		return nil, io.EOF
	}
	doc := r.data
	r.data = nil
	return doc, nil
}

// checkLiveDocument checks one live document against the limits, for
// numbers a decoder would read as others and, for JSON, for bytes that are
// not UTF-8, before readDocument parses it. It returns the nodes a
// decoder builds of it, at most.
func checkLiveDocument(field string, raw []byte) (int, error) {
	js := bytes.TrimSpace(raw)
	lossy := false
	if bytes.HasPrefix(js, []byte("{")) && json.Valid(js) {
		if i := invalidUTF8(js); i >= 0 {
			return 0, invalid.Errorf(field, inputlimit.FirstLine(js[i:]), "must be UTF-8: the bytes here are not (a JSON decoder would read each as U+FFFD)")
		}
		n, err := inputlimit.Live.CheckJSON(js, func(text []byte) {
			if !lossy {
				_, _, lossy = numpath.LossyJSON(string(text))
			}
		})
		if err != nil {
			return 0, invalid.Errorf(field, inputlimit.FirstLine(raw), "%v", err)
		}
		if lossy {
			if f := numpath.JSON(js); f != nil {
				return 0, lossyNumber(field, f)
			}
		}
		return n, nil
	}
	st, err := inputlimit.Live.CheckYAML(raw, func(text []byte) {
		if !lossy {
			_, _, lossy = numpath.Lossy(string(text))
		}
	})
	if err != nil {
		return 0, invalid.Errorf(field, inputlimit.FirstLine(raw), "%v", err)
	}
	if lossy || st.Approximate {
		if f := numpath.YAML(raw); f != nil {
			return 0, lossyNumber(field, f)
		}
	}
	return st.Decoded, nil
}

// lossyNumber is the refusal of a number a decoder reads as another.
func lossyNumber(field string, f *numpath.Found) error {
	at := field
	if f.Path != "" {
		if f.Path[0] != '[' {
			at += "."
		}
		at += f.Path
	}
	return invalid.Errorf(at, f.Value(), "%s", f.Rule())
}

// invalidUTF8 is the index of the first byte of b that is not UTF-8, -1
// when all are.
func invalidUTF8(b []byte) int {
	for i := 0; i < len(b); {
		r, n := utf8.DecodeRune(b[i:])
		if r == utf8.RuneError && n == 1 {
			return i
		}
		i += n
	}
	return -1
}

// planObject is an object in the plan's form: its identity, its
// normalized JSON tree (a live one with the API server's defaults filled
// in) and what its managedFields say. A live object is read in two steps:
// its identity first (every object), the rest when the plan uses it
// (complete), so that the objects of other stacks in a live file cost
// little.
type planObject struct {
	field    string // where the input has it, "live[3]"
	key      objectKey
	ref      ObjectRef
	tree     map[string]any
	obj      etcdshapes.Object
	managed  *liveManaged
	defaults *defaultsNode
	live     bool
	normal   bool // normalizeValues ran
	checked  bool // check ran
	complete bool // normalizeTree ran
	// matched: a desired object has this live object's key (set by
	// planIndexed, which each plan calls once on objects it indexed).
	matched bool
}

// objectKey identifies an object across API versions.
type objectKey struct {
	group, kind, namespace, name string
}

func (k objectKey) groupKind() schema.GroupKind {
	return schema.GroupKind{Group: k.group, Kind: k.kind}
}

// planForm converts an object into its JSON tree: an unstructured object
// as it is, a typed one as Marshal prints it (typed objects from a client
// without apiVersion and kind get them from the scheme). It checks what
// the plan reads (see inspect); field names the object in errors,
// "live[3]". A live object gets the API server's defaults (defaultsFor).
func planForm(field string, o etcdshapes.Object, live bool) (*planObject, error) {
	p, err := planHead(field, o, live)
	if err != nil {
		return nil, err
	}
	return p, p.finish()
}

// planHead is the first step of planForm: the object's tree and identity.
func planHead(field string, o etcdshapes.Object, live bool) (*planObject, error) {
	if manifest.IsNil(o) {
		return nil, invalid.Errorf(field, nil, "must be an object, not nil")
	}
	var tree map[string]any
	normal := false
	if u, ok := o.(*unstructured.Unstructured); ok {
		// A caller's tree may be any graph; every step after this one
		// recurses into it.
		if err := jsontree.Check(field, u.Object); err != nil {
			return nil, err
		}
		tree = u.Object
	} else {
		m, isNormal, err := typedTree(field, o)
		if err != nil {
			return nil, err
		}
		tree, normal = m, isNormal
	}
	if tree == nil {
		return nil, invalid.Errorf(field, nil, "must be a Kubernetes object (a map with apiVersion and kind)")
	}
	key, ref, err := identity(field, tree)
	if err != nil {
		return nil, err
	}
	return &planObject{field: field, key: key, ref: ref, tree: tree, obj: o, live: live, normal: normal}, nil
}

// isTypedUninstallHook reports a typed (not unstructured) Helm uninstall
// hook.
func isTypedUninstallHook(o etcdshapes.Object) bool {
	if manifest.IsNil(o) {
		return false
	}
	if _, ok := o.(*unstructured.Unstructured); ok {
		return false
	}
	return etcdshapes.IsUninstallHook(o)
}

// hookHead is planHead of a typed Helm uninstall hook among the desired
// objects. The plan skips it (Result.Skipped: it is never applied), so it
// reads only its identity, from its type and object meta, with
// planHead's rules and errors, and does not build its tree.
func hookHead(field string, o etcdshapes.Object) (*planObject, error) {
	gvk := o.GetObjectKind().GroupVersionKind()
	meta := map[string]any{"name": o.GetName()}
	if ns := o.GetNamespace(); ns != "" {
		meta["namespace"] = ns
	}
	tree := map[string]any{"apiVersion": gvk.GroupVersion().String(), "kind": gvk.Kind, "metadata": meta}
	key, ref, err := identity(field, tree)
	if err != nil {
		return nil, err
	}
	return &planObject{field: field, key: key, ref: ref, tree: tree, obj: o, normal: true}, nil
}

// finish is the second step of planForm: the tree in the plan's form
// (the caller's own where it is already; the plan copies before it
// changes anything), every field the plan reads checked and managedFields
// read (inspect) and, for a live object, the API server's defaults.
func (p *planObject) finish() error {
	if err := p.normalizeValues(); err != nil {
		return err
	}
	if err := p.check(); err != nil {
		return err
	}
	return p.normalizeTree()
}

// check is inspect: what the fast path of a live object needs besides its
// tree as given (the fast path compares numbers by value, and anything it
// cannot vouch for goes the long way, which normalizes).
func (p *planObject) check() error {
	if p.checked {
		return nil
	}
	// planHead read the identity.
	managed, err := inspectBody(p.field, p.key, p.tree)
	if err != nil {
		return err
	}
	p.managed = managed
	if p.defaults, err = defaultsFor(p.ref.APIVersion, p.ref.Kind); err != nil {
		return err
	}
	p.checked = true
	return nil
}

// normalizeValues puts the tree's values in the plan's form.
func (p *planObject) normalizeValues() error {
	if p.normal {
		return nil
	}
	if !isNormalObject(p.tree) {
		n, err := normalize(p.tree)
		if err != nil {
			if te, ok := err.(*treeError); ok {
				return te.at(p.field)
			}
			return err
		}
		m, ok := n.(map[string]any)
		if !ok {
			return invalid.Errorf(p.field, shown(n), "must be a Kubernetes object (a map with apiVersion and kind)")
		}
		p.tree = m
	}
	p.normal = true
	return nil
}

// normalizeTree is normalizeValues and, for a live object, the API
// server's defaults (after check).
func (p *planObject) normalizeTree() error {
	if p.complete {
		return nil
	}
	if err := p.normalizeValues(); err != nil {
		return err
	}
	if err := p.check(); err != nil {
		return err
	}
	if p.live && p.defaults.changes(p.tree) {
		p.tree = copyJSON(p.tree).(map[string]any)
		p.defaults.apply(p.tree)
	}
	p.complete = true
	return nil
}

// kinds gives typed objects read without apiVersion and kind (as
// controller-runtime reads them) theirs, from the library's scheme.
var kinds = typedjson.NewKinds(etcdshapes.AddToScheme)

// typedTree is a typed object's JSON tree as Marshal prints it: the tree
// Marshal's printer parses (one JSON encoding, cleaned as Marshal cleans
// it) read into maps, numbers as the YAML document prints them. Anything
// the printer's fast path does not take goes the long way, through the
// YAML document (TestTypedTreeIsThePrintedDocument). normal reports a
// tree already in the plan's form (treeValue builds it so), which the plan
// then does not walk again.
func typedTree(field string, o etcdshapes.Object) (tree map[string]any, normal bool, err error) {
	o, err = kinds.WithKind(field, o)
	if err != nil {
		return nil, false, err
	}
	st := printer.Get()
	m, ok := jsonTree(st, o)
	printer.Put(st)
	if ok {
		return m, true, nil
	}
	m, err = typedTreeViaYAML(field, o)
	return m, false, err
}

// typedTreeViaYAML is typedTree through the printed YAML document.
func typedTreeViaYAML(field string, o etcdshapes.Object) (map[string]any, error) {
	js, err := kinds.Of(field, o)
	if err != nil {
		return nil, err
	}
	return plainjson.DecodeMap(js)
}

// jsonTree is o's cleaned tree as maps; ok is false where the printer's
// fast path would fall back.
func jsonTree(st *printer.State, o etcdshapes.Object) (map[string]any, bool) {
	gvk := o.GetObjectKind().GroupVersionKind()
	if gvk.Kind == "" || gvk.Version == "" {
		return nil, false
	}
	t := &st.Tree
	if err := t.Encode(o); err != nil || t.Kind(t.Root()) != yamlemit.Map {
		return nil, false
	}
	printer.CleanTree(t, gvk.Group == "cert-manager.io" && gvk.Kind == "Certificate")
	if len(st.Strs) > maxInterned {
		clear(st.Strs)
	}
	if st.Strs == nil {
		st.Strs = make(map[string]any)
	}
	v, ok := treeValue(t, t.Root(), st.Strs)
	m, _ := v.(map[string]any)
	return m, ok && m != nil
}

// maxInterned bounds the strings a printer.State keeps for reuse.
const maxInterned = 4096

// intern is b as a string in an interface, the same one for the same
// bytes while it is in strs (keys and values repeat across a stack's
// objects, and a string put in an interface anew is an allocation).
func intern(strs map[string]any, b []byte) any {
	if s, ok := strs[string(b)]; ok {
		return s
	}
	str := string(b)
	s := any(str)
	strs[str] = s
	return s
}

// treeValue converts a parsed node into the plan's JSON form: whole
// numbers as int64, others as float64, read from the text the YAML
// document prints; strings interned in strs.
func treeValue(t *yamlemit.Tree, n yamlemit.Node, strs map[string]any) (any, bool) {
	switch t.Kind(n) {
	case yamlemit.Map:
		m := make(map[string]any, t.Len(n))
		for i := 0; i < t.Len(n); i++ {
			k, c := t.Entry(n, i)
			v, ok := treeValue(t, c, strs)
			if !ok {
				return nil, false
			}
			m[intern(strs, k).(string)] = v
		}
		return m, true
	case yamlemit.List:
		l := make([]any, t.Len(n))
		for i := range l {
			v, ok := treeValue(t, t.Item(n, i), strs)
			if !ok {
				return nil, false
			}
			l[i] = v
		}
		return l, true
	case yamlemit.String:
		return intern(strs, t.Text(n)), true
	case yamlemit.Bool:
		return string(t.Text(n)) == "true", true
	case yamlemit.Null:
		return nil, true
	case yamlemit.Number:
		text := string(t.Text(n))
		if i, err := strconv.ParseInt(text, 10, 64); err == nil {
			return i, true
		}
		f, err := strconv.ParseFloat(text, 64)
		if err != nil || math.IsNaN(f) || math.IsInf(f, 0) {
			return nil, false
		}
		v, err := number(f)
		return v, err == nil
	}
	return nil, false
}

// LiveStateFromObjects reads a tenant cluster's live state from live
// objects (see ReadObjects): the storage class of the EtcdCluster
// "<release>-etcd" (an EtcdCluster without the field yields "", which
// keeps the field omitted) and its spec.bootstrap (a restored cluster's,
// rendered as it is), and the spec.dataStoreName of the
// KamajiControlPlane "<release>", both in namespace. Objects that are not
// these two are ignored, so the whole live stack can be passed. Rendering
// with this state and planning against the same live objects changes
// nothing on a live stack the library rendered. It needs only a tenant
// namespace and a DNS-1123 release, not the rules of the names a rendered
// stack uses, so that a cluster created before them, which stays on a
// shared datastore, can be read.
func LiveStateFromObjects(namespace, release string, live []etcdshapes.Object) (etcdshapes.LiveState, error) {
	if _, err := naming.ClusterDataStore(namespace, release); err != nil {
		return etcdshapes.LiveState{}, err
	}
	var err error
	objs := make([]*planObject, len(live))
	for i, o := range live {
		if objs[i], err = planHead("live["+strconv.Itoa(i)+"]", o, true); err != nil {
			return etcdshapes.LiveState{}, err
		}
	}
	name, err := naming.ClusterEtcdName(release)
	if err != nil {
		return etcdshapes.LiveState{}, err
	}
	return liveStateOf(namespace, release, name, objs)
}

// liveStateOf is LiveStateFromObjects of objects in the plan's form.
// liveStateOf reads the live state of the tenant cluster release in
// namespace, whose EtcdCluster is cluster.
func liveStateOf(namespace, release, cluster string, live []*planObject) (etcdshapes.LiveState, error) {
	var st etcdshapes.LiveState
	for _, p := range live {
		if p.key.namespace != namespace {
			continue
		}
		field := p.field
		isCluster := p.key.groupKind() == etcdClusterKind && p.key.name == cluster
		isKCP := p.key.groupKind() == kamajiControlPlaneKind && p.key.name == release
		if !isCluster && !isKCP {
			continue
		}
		if err := p.finish(); err != nil {
			return etcdshapes.LiveState{}, err
		}
		spec, _ := p.tree["spec"].(map[string]any)
		switch {
		case isCluster:
			storage, _ := spec["storage"].(map[string]any)
			sc := ""
			if v, ok := storage["storageClassName"]; ok && v != nil {
				s, ok := v.(string)
				if !ok {
					return etcdshapes.LiveState{}, invalid.Errorf(field+".spec.storage.storageClassName", shown(v), "must be a string")
				}
				sc = s
			}
			st.StorageClassName = &sc
			b, err := bootstrapOf(p)
			if err != nil {
				return etcdshapes.LiveState{}, err
			}
			st.Bootstrap = b
		case isKCP:
			if v, ok := spec["dataStoreName"]; ok && v != nil {
				s, ok := v.(string)
				if !ok {
					return etcdshapes.LiveState{}, invalid.Errorf(field+".spec.dataStoreName", shown(v), "must be a string")
				}
				st.DataStoreName = s
			}
		}
	}
	if err := st.Validate(); err != nil {
		return etcdshapes.LiveState{}, err
	}
	return st, nil
}

// bootstrapOf reads a live EtcdCluster's spec.bootstrap (p finished), nil
// when it has none. It is decoded as the EtcdCluster type has it; a field
// the type does not know (a newer CRD) is left out, and the plan then
// shows it removed.
func bootstrapOf(p *planObject) (*v1alpha2.BootstrapSpec, error) {
	v := valueAt(p.tree, dotted("spec.bootstrap"))
	if v == nil {
		return nil, nil
	}
	field := p.field + ".spec.bootstrap"
	b, err := json.Marshal(v)
	if err != nil {
		return nil, invalid.Errorf(field, shown(v), "must be a bootstrap spec: %v", err)
	}
	out := &v1alpha2.BootstrapSpec{}
	if err := json.Unmarshal(b, out); err != nil {
		return nil, invalid.Errorf(field, shown(v), "must be a bootstrap spec (restore.source with s3 or pvc): %v", err)
	}
	return out, nil
}

// liveBootstrapOf is the spec.bootstrap of the live EtcdCluster cluster in
// namespace (bootstrapOf), nil when there is none: the etcd chart's live
// state.
func liveBootstrapOf(namespace, cluster string, live []*planObject) (*v1alpha2.BootstrapSpec, error) {
	for _, p := range live {
		if p.key.groupKind() != etcdClusterKind || p.key.namespace != namespace || p.key.name != cluster {
			continue
		}
		if err := p.finish(); err != nil {
			return nil, err
		}
		return bootstrapOf(p)
	}
	return nil, nil
}

// stackScope is every object a stack with these names can render, whatever
// its values and served APIs: what a plan may delete; etcdshapes.Scope(n)
// as keys. It renders the stack with every optional kind on but the
// GrafanaDashboard, so it cannot drift from the builders, and adds the
// dashboard's key from its name: the dashboard's model is most of a
// whole stack's render, and only its name counts here
// (TestStackScopeIsScope pins the result to etcdshapes.Scope). Helm
// uninstall hooks and "keep" objects are left out: the plan never
// deletes them.
func stackScope(n naming.Names) (map[objectKey]bool, error) {
	objs, err := etcdshapes.Scope(n)
	if err != nil {
		return nil, err
	}
	scope := make(map[objectKey]bool, len(objs))
	for _, o := range objs {
		scope[objectKey{group: o.Kind.Group, kind: o.Kind.Kind, namespace: o.Namespace, name: o.Name}] = true
	}
	return scope, nil
}

// needsStackScope says whether ForRequest needs the stack's whole scope
// (stackScope, a second render) or whether the scope of its render
// (scopeOf) gives every answer the plan asks of it. A render leaves out of
// the stack only the objects of the caller's optional APIs it is not
// given (TestRenderScopeLacksOnlyUnlistedKinds), and the plan asks the
// scope about live objects only (may it infer an API from one, may it
// delete one) and about the desired objects, which the render's scope
// holds. So unless a live object is of one of those kinds, the two scopes
// answer alike.
func needsStackScope(caller naming.Caller, listed []string, live map[objectKey]*planObject) bool {
	kinds := unlistedKinds(caller, listed)
	if len(kinds) == 0 {
		return false
	}
	for k := range live {
		if slices.Contains(kinds, k.groupKind()) {
			return true
		}
	}
	return false
}

// unlistedKinds are the kinds of the caller's optional APIs that listed
// leaves out: what a render with listed lacks of its stack.
func unlistedKinds(caller naming.Caller, listed []string) []schema.GroupKind {
	var kinds []schema.GroupKind
	for _, api := range etcdshapes.OptionalAPIsOf(caller) {
		if !slices.Contains(listed, api) {
			kinds = append(kinds, apiGroupKind(api))
		}
	}
	return kinds
}

// scopeOf is the keys of the objects of a stack's render, Helm uninstall
// hooks and "keep" objects left out. The objects a stack renders depend
// on its names and served APIs only, never on its values
// (TestScopeOfARenderIsTheStacks), so a render with every optional API
// is the stack's scope.
func scopeOf(objs []etcdshapes.Object) map[objectKey]bool {
	scope := make(map[objectKey]bool, len(objs))
	for _, o := range objs {
		if etcdshapes.IsUninstallHook(o) || etcdshapes.IsKept(o) {
			continue
		}
		scope[objectKey{group: o.GetObjectKind().GroupVersionKind().Group, kind: o.GetObjectKind().GroupVersionKind().Kind, namespace: o.GetNamespace(), name: o.GetName()}] = true
	}
	return scope
}

// optionalAPIOf is the optional API of a kind, if it is one.
func optionalAPIOf(gk schema.GroupKind) (string, bool) {
	for _, api := range etcdshapes.OptionalAPIs() {
		if apiGroupKind(api) == gk {
			return api, true
		}
	}
	return "", false
}

// apiGroupKind is the kind of an API spelled group/version/Kind.
func apiGroupKind(api string) schema.GroupKind {
	group, _, _ := strings.Cut(api, "/")
	return schema.GroupKind{Group: group, Kind: api[strings.LastIndex(api, "/")+1:]}
}

// inferAPIs finds the optional APIs the request does not list but a live
// object of the stack (scope, see stackScope) proves served: a live VerticalPodAutoscaler of the
// stack exists only where its API is. Rendering without them would plan
// the object's deletion (whatever version it was read at: the API server
// serves the kind, and the apply names the version the stack renders).
func inferAPIs(listed []string, scope map[objectKey]bool, live map[objectKey]*planObject) []InferredAPI {
	keys := make([]objectKey, 0, len(scope))
	for k := range scope {
		keys = append(keys, k)
	}
	sort.Slice(keys, func(i, j int) bool { return lessKey(keys[i], keys[j]) })
	var out []InferredAPI
	for _, api := range etcdshapes.OptionalAPIs() {
		if slices.Contains(listed, api) {
			continue
		}
		gk := apiGroupKind(api)
		for _, k := range keys {
			if l := live[k]; l != nil && k.groupKind() == gk {
				out = append(out, InferredAPI{API: api, From: l.ref})
				break
			}
		}
	}
	return out
}

// namesOfStack finds the stack a desired set of objects belongs to from
// its EtcdCluster: "etcd" is the etcd chart's, "<release>-etcd" a tenant
// cluster's.
func namesOfStack(desired []*planObject) (naming.Names, bool) {
	for _, d := range desired {
		if d.key.groupKind() != etcdClusterKind {
			continue
		}
		if d.key.name == naming.EtcdChartName {
			n, err := naming.ForEtcdChart(d.key.namespace, naming.EtcdChartRelease)
			return n, err == nil
		}
		if rel, ok := strings.CutSuffix(d.key.name, "-etcd"); ok {
			n, err := naming.ForCluster(d.key.namespace, rel)
			return n, err == nil
		}
	}
	return naming.Names{}, false
}
