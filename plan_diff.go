package etcdshapes

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
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

// normalize copies a JSON tree into the form the diff compares: integral
// numbers as int64 whatever their spelling (600 and 600.0 are one value; a
// decoder gives either), other numbers as float64.
func normalize(v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, c := range t {
			n, err := normalize(c)
			if err != nil {
				return nil, err
			}
			out[k] = n
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			n, err := normalize(c)
			if err != nil {
				return nil, err
			}
			out[i] = n
		}
		return out, nil
	case nil, bool, string:
		return t, nil
	}
	return number(v)
}

// isQuantityField: the values of quantityParents' maps, an EtcdCluster's
// storage.size and an emptyDir's sizeLimit. Other "size" fields are plain
// numbers (a private key's size).
func isQuantityField(key, parent string) bool {
	return quantityParents[parent] || (key == "size" && parent == "storage") || (key == "sizeLimit" && parent == "emptyDir")
}

// number converts any Go number a decoder or a caller may put in an
// unstructured object.
func number(v any) (any, error) {
	var f float64
	switch t := v.(type) {
	case int:
		return int64(t), nil
	case int32:
		return int64(t), nil
	case int64:
		return t, nil
	case uint32:
		return int64(t), nil
	case float32:
		f = float64(t)
	case float64:
		f = t
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		var err error
		if f, err = t.Float64(); err != nil {
			return nil, fmt.Errorf("etcdshapes: number %q: %w", t, err)
		}
	default:
		return nil, fmt.Errorf("etcdshapes: unsupported value %T in an object", v)
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int64(f), nil
	}
	return f, nil
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
		for i, lv := range l {
			if j := counterpart(l, d, i); j >= 0 {
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
		return fmt.Errorf("etcdshapes: live object at %q: %w", pathString(prefix), err)
	}
	dt, err := deduced.FromUnstructured(dm)
	if err != nil {
		return fmt.Errorf("etcdshapes: desired object at %q: %w", pathString(prefix), err)
	}
	cmp, err := lt.Compare(dt)
	if err != nil {
		return fmt.Errorf("etcdshapes: compare at %q: %w", pathString(prefix), err)
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
	for j, d := range dl {
		i := counterpart(dl, ll, j)
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

// counterpart is the index in other of the element that pairs with
// list[i]: the one of the same name when both lists name every element
// distinctly, the same position otherwise; -1 when there is none.
func counterpart(list, other []any, i int) int {
	if named(list) && named(other) {
		name := list[i].(map[string]any)["name"]
		for j, o := range other {
			if o.(map[string]any)["name"] == name {
				return j
			}
		}
		return -1
	}
	if i < len(other) {
		return i
	}
	return -1
}

// named reports whether every element of a non-empty list is an object
// with a distinct string name.
func named(l []any) bool {
	if len(l) == 0 {
		return false
	}
	seen := make(map[string]bool, len(l))
	for _, e := range l {
		m, ok := e.(map[string]any)
		if !ok {
			return false
		}
		n, ok := m["name"].(string)
		if !ok || seen[n] {
			return false
		}
		seen[n] = true
	}
	return true
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

// managedSets reads the live object's managedFields into the field set
// manager applied and the union of every other manager's fields.
func managedSets(liveMeta map[string]any, manager string) (ours, others *fieldpath.Set, err error) {
	ours, others = &fieldpath.Set{}, &fieldpath.Set{}
	entries, _ := liveMeta["managedFields"].([]any)
	for i, e := range entries {
		m, ok := e.(map[string]any)
		if !ok {
			continue
		}
		fields, ok := m["fieldsV1"].(map[string]any)
		if !ok {
			continue
		}
		raw, err := json.Marshal(fields)
		if err != nil {
			return nil, nil, err
		}
		s := &fieldpath.Set{}
		if err := s.FromJSON(bytes.NewReader(raw)); err != nil {
			return nil, nil, fmt.Errorf("etcdshapes: metadata.managedFields[%d]: %w", i, err)
		}
		if m["manager"] == manager && m["operation"] == "Apply" {
			ours = ours.Union(s)
		} else {
			others = others.Union(s)
		}
	}
	return ours, others, nil
}

// removedFields are the fields manager applied to live that desired no
// longer sets and no other manager owns: server-side apply removes them.
// A field inside a list desired sets as a whole is not removed on its own.
func removedFields(live, desired map[string]any, manager string) ([]FieldChange, error) {
	meta, _ := live["metadata"].(map[string]any)
	ours, others, err := managedSets(meta, manager)
	if err != nil || ours.Empty() {
		return nil, err
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
	ours.Leaves().Iterate(func(p fieldpath.Path) {
		if !appliedField(p) || want.Has(p) || others.Has(p) {
			return
		}
		for i := 1; i < len(p); i++ {
			if _, isList := valueAt(desired, p[:i]).([]any); isList {
				return
			}
		}
		lv := valueAt(live, p)
		if lv == nil {
			return
		}
		out = append(out, FieldChange{Path: pathString(p), Type: FieldRemoved, Live: lv})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out, nil
}

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
