package etcdshapes

import (
	"fmt"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// The field diff is structured-merge-diff's, on its deduced schema: maps
// are granular, lists are atomic. That is exactly what
// k8s.io/apimachinery/pkg/util/managedfields.NewDeducedTypeConverter
// builds, without that package's OpenAPI and protobuf dependencies (77
// packages the library would otherwise carry for one type). A schema with
// the real list keys would need every kind's OpenAPI, which the library
// does not ship; two small steps stand in for it:
//
//   - project: the live object is cut down to the shape of the desired one
//     before comparing, so that server-set fields the builders never set
//     (uid, status, defaults such as progressDeadlineSeconds or a
//     container's terminationMessagePath) are not changes. Lists are cut
//     element by element, elements paired by name or else by position;
//     that is where a deduced (atomic) list would otherwise hide a
//     defaulted field.
//   - refine: a changed list of objects is compared element by element
//     (diffList), so a change is reported at the field or element that
//     changed (containers[name="etcd-defrag"].image, an added
//     topologySpreadConstraints[1]), not as the whole list.
var deduced = typed.DeducedParseableType

// ChangeType says how a field changes.
type ChangeType string

const (
	// FieldAdded is a field the live object does not have.
	FieldAdded ChangeType = "added"
	// FieldChanged is a field whose value changes.
	FieldChanged ChangeType = "changed"
	// FieldRemoved is a field this field manager applied before and no
	// longer sets (known only when the live object carries managedFields).
	FieldRemoved ChangeType = "removed"
)

// FieldChange is one changed field of an object.
type FieldChange struct {
	// Path is the field, e.g. "spec.replicas" or
	// `spec.jobTemplate.spec.template.spec.containers[name="etcd-defrag"].image`.
	Path string     `json:"path"`
	Type ChangeType `json:"type"`
	// Live and Desired are the values in their JSON form (nil when absent).
	Live    any `json:"live,omitempty"`
	Desired any `json:"desired,omitempty"`
}

// quantityParents are map keys whose values are resource quantities
// (resources.limits/requests, the VPA's bounds, node and PVC capacities).
var quantityParents = map[string]bool{
	"limits": true, "requests": true, "minAllowed": true, "maxAllowed": true,
	"capacity": true, "allocatable": true,
}

// isQuantityField: the values of quantityParents' maps, an EtcdCluster's
// storage.size and an emptyDir's sizeLimit. Other "size" fields are plain
// numbers (a private key's size).
func isQuantityField(key, parent string) bool {
	return quantityParents[parent] || (key == "size" && parent == "storage") || (key == "sizeLimit" && parent == "emptyDir")
}

func formatNumber(n any) string {
	if i, ok := n.(int64); ok {
		return strconv.FormatInt(i, 10)
	}
	return strconv.FormatFloat(n.(float64), 'f', -1, 64)
}

// project cuts live down to the shape of desired: map keys desired does
// not have are dropped, lists of the same length are cut element by
// element, a quantity equal to the desired one by value takes the desired
// spelling (the API server stores "0.1" and "100m", or "10Gi" and
// "10737418240", of a built-in kind as the same quantity, and a CRD keeps
// whichever spelling it was sent); anything else is kept as it is.
func project(live, desired any, key, parent string) any {
	switch d := desired.(type) {
	case map[string]any:
		l, ok := live.(map[string]any)
		if !ok {
			return live
		}
		out := make(map[string]any, len(d))
		for k, dv := range d {
			if lv, ok := l[k]; ok {
				out[k] = project(lv, dv, k, key)
			}
		}
		return out
	case []any:
		l, ok := live.([]any)
		if !ok {
			return live
		}
		out := make([]any, len(l))
		pairs := pairing(l, d)
		for i, lv := range l {
			if j := pairs[i]; j >= 0 {
				out[i] = project(lv, d[j], "", key)
			} else {
				out[i] = lv
			}
		}
		return out
	default:
		if isQuantityField(key, parent) && sameQuantity(live, desired) {
			return desired
		}
		return live
	}
}

// sameQuantity reports whether two JSON scalars are the same quantity.
func sameQuantity(a, b any) bool {
	qa, ok := asQuantity(a)
	if !ok {
		return false
	}
	qb, ok := asQuantity(b)
	return ok && qa.Cmp(qb) == 0
}

func asQuantity(v any) (resource.Quantity, bool) {
	var s string
	switch t := v.(type) {
	case string:
		s = t
	case int64, float64:
		s = formatNumber(t)
	default:
		return resource.Quantity{}, false
	}
	q, err := resource.ParseQuantity(s)
	return q, err == nil
}

// diffFields compares the projected live tree with the desired tree.
func diffFields(live, desired map[string]any) ([]FieldChange, error) {
	var out []FieldChange
	if err := diffInto(&out, nil, live, desired); err != nil {
		return nil, err
	}
	return out, nil
}

func diffInto(out *[]FieldChange, prefix fieldpath.Path, live, desired any) error {
	lm, lok := live.(map[string]any)
	dm, dok := desired.(map[string]any)
	if !lok || !dok {
		if !reflect.DeepEqual(live, desired) {
			*out = append(*out, FieldChange{Path: pathString(prefix), Type: FieldChanged, Live: live, Desired: desired})
		}
		return nil
	}
	lt, err := deduced.FromUnstructured(lm)
	if err != nil {
		return fmt.Errorf("the live object at %q: %w", pathString(prefix), err)
	}
	dt, err := deduced.FromUnstructured(dm)
	if err != nil {
		return fmt.Errorf("the desired object at %q: %w", pathString(prefix), err)
	}
	cmp, err := lt.Compare(dt)
	if err != nil {
		return fmt.Errorf("comparing at %q: %w", pathString(prefix), err)
	}
	for _, p := range topmost(cmp.Added) {
		*out = append(*out, FieldChange{Path: pathString(join(prefix, p)), Type: FieldAdded, Desired: valueAt(dm, p)})
	}
	for _, p := range topmost(cmp.Removed) {
		*out = append(*out, FieldChange{Path: pathString(join(prefix, p)), Type: FieldRemoved, Live: valueAt(lm, p)})
	}
	for _, p := range topmost(cmp.Modified) {
		lv, dv := valueAt(lm, p), valueAt(dm, p)
		ll, lok := lv.([]any)
		dl, dok := dv.([]any)
		if !lok || !dok || !allMaps(ll) || !allMaps(dl) {
			*out = append(*out, FieldChange{Path: pathString(join(prefix, p)), Type: FieldChanged, Live: lv, Desired: dv})
			continue
		}
		if err := diffList(out, join(prefix, p), ll, dl); err != nil {
			return err
		}
	}
	return nil
}

// diffList reports a changed list of objects element by element: elements
// are paired by name when every element on both sides has a distinct one
// (containers, volumes, env), by position otherwise; a paired element is
// refined field by field, an unpaired desired element is added and an
// unpaired live one removed. A list whose elements only moved is one
// change of the whole list, because an apply of an atomic list replaces it.
func diffList(out *[]FieldChange, path fieldpath.Path, ll, dl []any) error {
	before := len(*out)
	paired := make([]bool, len(ll))
	pairs := pairing(dl, ll)
	for j, d := range dl {
		i := pairs[j]
		if i < 0 {
			*out = append(*out, FieldChange{Path: pathString(join(path, fieldpath.Path{elementOf(nil, d, j)})), Type: FieldAdded, Desired: d})
			continue
		}
		paired[i] = true
		if reflect.DeepEqual(ll[i], d) {
			continue
		}
		if err := diffInto(out, join(path, fieldpath.Path{elementOf(ll[i], d, j)}), ll[i], d); err != nil {
			return err
		}
	}
	for i, l := range ll {
		if !paired[i] {
			*out = append(*out, FieldChange{Path: pathString(join(path, fieldpath.Path{elementOf(l, nil, i)})), Type: FieldRemoved, Live: l})
		}
	}
	if len(*out) == before {
		*out = append(*out, FieldChange{Path: pathString(path), Type: FieldChanged, Live: ll, Desired: dl})
	}
	return nil
}

// pairing maps each element of list to the index of its counterpart in
// other, -1 where there is none: the element of the same name when both
// lists name every element distinctly, the same position otherwise. It
// is linear in the lengths of both lists (one pass each, names hashed).
func pairing(list, other []any) []int {
	out := make([]int, len(list))
	if names := nameIndex(list); names != nil {
		if otherNames := nameIndex(other); otherNames != nil {
			for i, e := range list {
				j, ok := otherNames[e.(map[string]any)["name"].(string)]
				if !ok {
					j = -1
				}
				out[i] = j
			}
			return out
		}
	}
	for i := range list {
		out[i] = -1
		if i < len(other) {
			out[i] = i
		}
	}
	return out
}

// nameIndex maps the names of a non-empty list whose every element is an
// object with a distinct string name to their positions; nil otherwise.
func nameIndex(l []any) map[string]int {
	if len(l) == 0 {
		return nil
	}
	if m, ok := l[0].(map[string]any); !ok {
		return nil
	} else if _, ok := m["name"].(string); !ok {
		return nil
	}
	index := make(map[string]int, len(l))
	for i, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return nil
		}
		n, ok := m["name"].(string)
		if !ok {
			return nil
		}
		if _, dup := index[n]; dup {
			return nil
		}
		index[n] = i
	}
	return index
}

// allMaps reports whether every element of a list is a map: a list of
// objects is refined element by element, a list of scalars (args,
// endpoints, DNS names) reads better whole.
func allMaps(l []any) bool {
	for _, e := range l {
		if _, ok := e.(map[string]any); !ok {
			return false
		}
	}
	return true
}

// elementOf names a list element by its "name" when the sides present
// (one of them may be nil: an added or removed element) agree on one
// (containers, volumes, env), by its index i otherwise.
func elementOf(live, desired any, i int) fieldpath.PathElement {
	var names []string
	for _, side := range []any{live, desired} {
		if side == nil {
			continue
		}
		m, ok := side.(map[string]any)
		if !ok {
			return fieldpath.IndexElement(i)
		}
		n, ok := m["name"].(string)
		if !ok {
			return fieldpath.IndexElement(i)
		}
		names = append(names, n)
	}
	if len(names) == 0 || (len(names) == 2 && names[0] != names[1]) {
		return fieldpath.IndexElement(i)
	}
	return fieldpath.KeyElementByFields("name", names[0])
}

// topmost lists the paths of a set whose parent is not in the set: an
// added map is one change, not one per nested field. Sorted.
func topmost(s *fieldpath.Set) []fieldpath.Path {
	var out []fieldpath.Path
	s.Iterate(func(p fieldpath.Path) {
		for i := 1; i < len(p); i++ {
			if s.Has(p[:i]) {
				return
			}
		}
		out = append(out, p.Copy())
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Compare(out[j]) < 0 })
	return out
}

func join(prefix, p fieldpath.Path) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(prefix)+len(p))
	return append(append(out, prefix...), p...)
}

// pathString prints a path without the leading dot: "spec.replicas".
func pathString(p fieldpath.Path) string {
	return strings.TrimPrefix(p.String(), ".")
}

// valueAt follows a path through a JSON tree; nil when it leads nowhere.
func valueAt(v any, p fieldpath.Path) any {
	for _, pe := range p {
		switch {
		case pe.FieldName != nil:
			m, ok := v.(map[string]any)
			if !ok {
				return nil
			}
			v = m[*pe.FieldName]
		case pe.Index != nil:
			l, ok := v.([]any)
			if !ok || *pe.Index < 0 || *pe.Index >= len(l) {
				return nil
			}
			v = l[*pe.Index]
		case pe.Key != nil:
			v = findElement(v, func(e any) bool {
				m, ok := e.(map[string]any)
				if !ok {
					return false
				}
				for _, f := range *pe.Key {
					if !value.Equals(value.NewValueInterface(m[f.Name]), f.Value) {
						return false
					}
				}
				return true
			})
		case pe.Value != nil:
			want := *pe.Value
			v = findElement(v, func(e any) bool { return value.Equals(value.NewValueInterface(e), want) })
		default:
			return nil
		}
	}
	return v
}

func findElement(v any, match func(any) bool) any {
	l, ok := v.([]any)
	if !ok {
		return nil
	}
	for _, e := range l {
		if match(e) {
			return e
		}
	}
	return nil
}

// removedFields are the fields FieldManager applied to live (ours) that
// desired no longer sets and no other manager owns: server-side apply
// removes them. The API server then defaults again a removed field that
// has a default, where its parent object survives the apply: that is a
// change to the default, not a removal. A field inside a list desired
// sets as a whole is not removed on its own.
//
// It walks the field sets and the two trees together, each keyed list
// indexed once, so it is linear in their sizes.
func removedFields(live, desired map[string]any, ours, others *fieldpath.Set, defaults *defaultsNode) ([]FieldChange, error) {
	if ours == nil || ours.Empty() {
		return nil, nil
	}
	dt, err := deduced.FromUnstructured(desired)
	if err != nil {
		return nil, err
	}
	want, err := dt.ToFieldSet()
	if err != nil {
		return nil, err
	}
	var out []FieldChange
	walkRemoved(&out, nil, ours, want, others, live, desired, defaults, true)
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

// walkRemoved visits one node of the field set ours at prefix: live and
// desired are the values there (nil when absent), want and others the
// same node of the desired and the other managers' sets (nil when they
// have none), defaults the node of the defaults, survives whether the
// object at prefix is still there after the apply.
func walkRemoved(out *[]FieldChange, prefix fieldpath.Path, ours, want, others *fieldpath.Set, live, desired any, defaults *defaultsNode, survives bool) {
	liveIx, desiredIx := &elementIndex{}, &elementIndex{}
	ours.Members.Iterate(func(pe fieldpath.PathElement) {
		if _, parent := ours.Children.Get(pe); parent {
			return // not a leaf: its children are visited below
		}
		p := join(prefix, fieldpath.Path{pe})
		if !appliedField(p) || hasMember(want, pe) || hasMember(others, pe) {
			return
		}
		lv := liveIx.lookup(live, pe)
		if lv == nil {
			return
		}
		if d := defaults.child(pe); survives && d != nil && d.hasValue {
			key, parent := "", ""
			if pe.FieldName != nil {
				key = *pe.FieldName
			}
			if n := len(prefix); n > 0 && prefix[n-1].FieldName != nil {
				parent = *prefix[n-1].FieldName
			}
			if reflect.DeepEqual(lv, d.value) || (isQuantityField(key, parent) && sameQuantity(lv, d.value)) {
				return
			}
			*out = append(*out, FieldChange{Path: pathString(p), Type: FieldChanged, Live: lv, Desired: d.value})
			return
		}
		*out = append(*out, FieldChange{Path: pathString(p), Type: FieldRemoved, Live: lv})
	})
	ours.Children.Iterate(func(pe fieldpath.PathElement) {
		child, _ := ours.Children.Get(pe)
		dv := desiredIx.lookup(desired, pe)
		if _, isList := dv.([]any); isList {
			return // desired sets the list whole
		}
		d := defaults.child(pe)
		wantChild, othersChild := childSet(want, pe), childSet(others, pe)
		kept := survives && (dv != nil || hasMember(others, pe) || othersChild != nil || (d != nil && d.hasValue))
		walkRemoved(out, join(prefix, fieldpath.Path{pe}), child, wantChild, othersChild, liveIx.lookup(live, pe), dv, d, kept)
	})
}

func hasMember(s *fieldpath.Set, pe fieldpath.PathElement) bool {
	return s != nil && s.Members.Has(pe)
}

func childSet(s *fieldpath.Set, pe fieldpath.PathElement) *fieldpath.Set {
	if s == nil {
		return nil
	}
	c, ok := s.Children.Get(pe)
	if !ok {
		return nil
	}
	return c
}

// elementIndex finds the elements of one list by key or value, indexing
// the list on first use.
type elementIndex struct {
	byKey map[string]map[string]int // key field names -> element key -> position
}

// lookup follows one path element from v; nil when it leads nowhere.
func (x *elementIndex) lookup(v any, pe fieldpath.PathElement) any {
	switch {
	case pe.FieldName != nil:
		m, _ := v.(map[string]any)
		return m[*pe.FieldName]
	case pe.Index != nil:
		l, _ := v.([]any)
		if *pe.Index < 0 || *pe.Index >= len(l) {
			return nil
		}
		return l[*pe.Index]
	case pe.Key != nil, pe.Value != nil:
		l, ok := v.([]any)
		if !ok {
			return nil
		}
		names := ""
		if pe.Key != nil {
			for _, f := range *pe.Key {
				names += f.Name + "\x00"
			}
		}
		if x.byKey == nil {
			x.byKey = map[string]map[string]int{}
		}
		ix, ok := x.byKey[names]
		if !ok {
			ix = make(map[string]int, len(l))
			for i := len(l) - 1; i >= 0; i-- { // the first element wins
				if k, ok := elementKey(l[i], pe); ok {
					ix[k] = i
				}
			}
			x.byKey[names] = ix
		}
		if i, ok := ix[pe.String()]; ok {
			return l[i]
		}
	}
	return nil
}

// elementKey is the path element that names e the way pe names its
// element (same key fields, or by value), printed; ok is false when e
// cannot be named so.
func elementKey(e any, pe fieldpath.PathElement) (string, bool) {
	if pe.Value != nil {
		return fieldpath.PathElement{Value: ptrTo(value.NewValueInterface(e))}.String(), true
	}
	m, ok := e.(map[string]any)
	if !ok {
		return "", false
	}
	fl := make(value.FieldList, 0, len(*pe.Key))
	for _, f := range *pe.Key {
		fv, ok := m[f.Name]
		if !ok {
			return "", false
		}
		fl = append(fl, value.Field{Name: f.Name, Value: value.NewValueInterface(fv)})
	}
	return fieldpath.PathElement{Key: &fl}.String(), true
}

func ptrTo[T any](v T) *T { return &v }

// appliedField reports whether a managed path is one an apply can remove:
// not status, and of metadata only labels, annotations and owner
// references.
func appliedField(p fieldpath.Path) bool {
	if len(p) == 0 || p[0].FieldName == nil {
		return false
	}
	switch *p[0].FieldName {
	case "status", "apiVersion", "kind":
		return false
	case "metadata":
		if len(p) < 2 || p[1].FieldName == nil {
			return false
		}
		switch *p[1].FieldName {
		case "labels", "annotations", "ownerReferences":
			return true
		}
		return false
	}
	return true
}
