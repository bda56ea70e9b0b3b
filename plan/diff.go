package plan

import (
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/internal/quantity"

	"k8s.io/apimachinery/pkg/api/resource"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// ChangeType says how a field changes.
type ChangeType string

const (
	// FieldAdded is a field the live object does not have.
	FieldAdded ChangeType = "added"
	// FieldChanged is a field whose value changes.
	FieldChanged ChangeType = "changed"
	// FieldRemoved is a field the apply removes: one this field manager
	// applied before, no longer sets and no other manager owns (known
	// only when the live object carries managedFields).
	FieldRemoved ChangeType = "removed"
)

// FieldChange is one field an apply changes: a field or list element it
// adds, a value it changes (a scalar, or an atomic list or map, which an
// apply replaces whole), a field or element it removes. A field another
// manager owns is never removed, and a removed field with a default takes
// the default (a change to it).
type FieldChange struct {
	// Path is the field as structured-merge-diff names it, e.g.
	// "spec.replicas" or
	// `spec.jobTemplate.spec.template.spec.containers[name="etcd-defrag"].image`
	// (elements of keyed lists by their keys, of sets by value).
	Path string `json:"path"`
	// PathElements is the path in managedFields' notation, one element
	// each ("f:spec", `k:{"name":"etcd-defrag"}`, "v:...", "i:0"):
	// unambiguous where Path is not (a label key with dots).
	PathElements []string `json:"pathElements"`
	// Type says whether the field is added, changed or removed.
	Type ChangeType `json:"type"`
	// Live is the value before the apply, in its JSON form (nil when
	// absent).
	Live any `json:"live,omitempty"`
	// Desired is the value after the apply, in its JSON form (nil when
	// absent).
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

// sameQuantity reports whether two JSON scalars are the same quantity.
func sameQuantity(a, b any) bool {
	qa, ok := asQuantity(a)
	if !ok {
		return false
	}
	qb, ok := asQuantity(b)
	return ok && qa.Cmp(qb) == 0
}

// asQuantity reads a JSON scalar as a quantity; ok is false for one that
// is no quantity or breaks the quantity bounds (which a live object may:
// the CRDs' pattern admits "1e999999999"), so that no comparison of live
// quantities costs more than microseconds.
func asQuantity(v any) (resource.Quantity, bool) {
	q, rule := quantityOf(v)
	return q, rule == ""
}

// quantityOf is asQuantity with the rule a scalar that is no admitted
// quantity breaks.
func quantityOf(v any) (resource.Quantity, string) {
	var s string
	switch t := v.(type) {
	case string:
		s = t
	case int64, float64:
		s = formatNumber(t)
	default:
		return resource.Quantity{}, quantity.SyntaxRule
	}
	if rule := quantity.Rule(s); rule != "" {
		return resource.Quantity{}, rule
	}
	q, err := resource.ParseQuantity(s)
	if err != nil {
		return resource.Quantity{}, quantity.SyntaxRule
	}
	return q, ""
}

// pairing maps each element of list to the index of its counterpart in
// other, -1 where there is none: the element of the same name when both
// lists name every element distinctly, the same position otherwise. It
// is linear in the lengths of both lists (one pass each, names hashed).
// WriteText shows a changed atomic list element by element with it.
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

func join(prefix, p fieldpath.Path) fieldpath.Path {
	out := make(fieldpath.Path, 0, len(prefix)+len(p))
	return append(append(out, prefix...), p...)
}

// pathElements is p in managedFields' notation, one string per element.
func pathElements(p fieldpath.Path) []string {
	out := make([]string, len(p))
	for i, pe := range p {
		s, err := fieldpath.SerializePathElement(pe)
		if err != nil {
			s = pe.String()
		}
		out[i] = s
	}
	return out
}

// pathString prints a path without the leading dot: "spec.replicas".
func pathString(p fieldpath.Path) string {
	return strings.TrimPrefix(p.String(), ".")
}

// valueAt follows a path of field names through a JSON tree; nil when it
// leads nowhere. The rules read fields such as "spec.storage.size" with
// it.
func valueAt(v any, p fieldpath.Path) any {
	for _, pe := range p {
		m, ok := v.(map[string]any)
		if !ok || pe.FieldName == nil {
			return nil
		}
		v = m[*pe.FieldName]
	}
	return v
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
