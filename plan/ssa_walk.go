package plan

import (
	"math"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/value"
)

// Walks of JSON trees (the plan's map[string]any form) guided by the
// embedded schema: the parts of server-side apply the plan computes
// itself, linear in the size of the trees, without building
// structured-merge-diff's typed values (see plan_ssa.go for when it
// does).

// fieldType is the type of a map's key k: its field, else the map's
// element type; ok is false when the schema has no place for k.
func fieldType(m *schema.Map, k string) (schema.TypeRef, bool) {
	if f, ok := m.FindField(k); ok {
		return f.Type, true
	}
	if m.ElementType.NamedType != nil || m.ElementType.Inlined.Scalar != nil || m.ElementType.Inlined.List != nil || m.ElementType.Inlined.Map != nil {
		return m.ElementType, true
	}
	return schema.TypeRef{}, false
}

func isAtomicMap(m *schema.Map) bool { return m.ElementRelationship == schema.Atomic }

// listKind is how server-side apply treats a list's elements.
type listKind int

const (
	atomicList listKind = iota // replaced whole
	keyedList                  // elements merged by their key fields
	setList                    // scalars merged by value
)

func kindOfList(l *schema.List) listKind {
	switch {
	case l.ElementRelationship != schema.Associative:
		return atomicList
	case len(l.Keys) > 0:
		return keyedList
	}
	return setList
}

// elementKey is the identity of a keyed list's element as
// structured-merge-diff derives it (keyedAssociativeListItemToPathElement):
// each key field's name and value, else its schema default, a field with
// neither left out; in the order of the names, as a path element lists
// them. ok is false for an element that is not a map or has no key field
// at all.
func elementKey(l *cList, e any) (string, bool) {
	m, ok := e.(map[string]any)
	if !ok {
		return "", false
	}
	var b strings.Builder
	found := false
	for i, k := range l.keys {
		v, ok := m[k]
		if !ok {
			if v = l.defaults[i]; v == nil {
				continue
			}
		}
		found = true
		b.WriteString(k)
		b.WriteByte(0)
		if !appendScalarKey(&b, v) {
			return "", false
		}
	}
	return b.String(), found
}

// sameElement reports whether two elements of a keyed list have the same
// identity (elementKey), without building it.
func sameElement(l *cList, a, b any) bool {
	am, ok := a.(map[string]any)
	if !ok {
		return false
	}
	bm, ok := b.(map[string]any)
	if !ok {
		return false
	}
	found := false
	for i, k := range l.keys {
		av, aok := am[k]
		if !aok {
			av, aok = l.defaults[i], l.defaults[i] != nil
		}
		bv, bok := bm[k]
		if !bok {
			bv, bok = l.defaults[i], l.defaults[i] != nil
		}
		if aok != bok || (aok && !sameScalar(av, bv)) {
			return false
		}
		found = found || aok
	}
	return found
}

// sameScalar is sameJSON of two scalars; false for anything else.
func sameScalar(a, b any) bool {
	switch a.(type) {
	case map[string]any, []any:
		return false
	}
	return sameJSON(a, b)
}

func keyDefault(s *schema.Schema, l *schema.List, field string) any {
	a, ok := s.Resolve(l.ElementType)
	if !ok || a.Map == nil {
		return nil
	}
	f, _ := a.Map.FindField(field)
	return f.Default
}

// normalizeDefault gives a schema default (an int from the schema) the
// plan's number form.
func normalizeDefault(v any) any {
	if n, err := normalize(v); err == nil {
		return n
	}
	return v
}

// setKey is the identity of a set's element (a scalar); ok is false for
// anything else.
func setKey(e any) (string, bool) {
	var b strings.Builder
	ok := appendScalarKey(&b, e)
	return b.String(), ok
}

// appendScalarKey writes a scalar tagged with its kind, so that 1 and
// "1" differ; numbers by value, as structured-merge-diff compares them.
func appendScalarKey(b *strings.Builder, v any) bool {
	switch t := v.(type) {
	case string:
		b.WriteByte('s')
		b.WriteString(t)
	case int64:
		b.WriteByte('n')
		b.WriteString(strconv.FormatInt(t, 10))
	case float64:
		b.WriteByte('n')
		if t == math.Trunc(t) && math.Abs(t) < 1<<63 {
			b.WriteString(strconv.FormatInt(int64(t), 10))
		} else {
			b.WriteString(strconv.FormatFloat(t, 'g', -1, 64))
		}
	case bool:
		if t {
			b.WriteString("t")
		} else {
			b.WriteString("f")
		}
	case nil:
		b.WriteByte('0')
	default:
		return false
	}
	b.WriteByte(0)
	return true
}

// listIndex maps the identities of a list's elements to their positions;
// dup reports an identity seen twice, bad an element without one.
type listIndex struct {
	pos      map[string]int
	dup, bad bool
}

func indexList(l *cList, list []any) listIndex {
	ix := listIndex{pos: make(map[string]int, len(list))}
	for i, e := range list {
		k, ok := identityOf(l, e)
		if !ok {
			ix.bad = true
			continue
		}
		if _, seen := ix.pos[k]; seen {
			ix.dup = true
			continue
		}
		ix.pos[k] = i
	}
	return ix
}

// sameIdentity reports whether two elements of a keyed list or set are
// the same element.
func sameIdentity(l *cList, a, b any) bool {
	if l.kind == keyedList {
		return sameElement(l, a, b)
	}
	return sameScalar(a, b)
}

// sameJSON reports whether two normalized JSON values are equal, numbers
// by value.
func sameJSON(a, b any) bool {
	switch x := a.(type) {
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !sameJSON(xv, yv) {
				return false
			}
		}
		return true
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameJSON(x[i], y[i]) {
				return false
			}
		}
		return true
	case string:
		y, ok := b.(string)
		return ok && x == y
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case nil:
		return b == nil
	case int64:
		switch y := b.(type) {
		case int64:
			return x == y
		case float64:
			return float64(x) == y
		}
	case float64:
		switch y := b.(type) {
		case float64:
			return x == y
		case int64:
			return x == float64(y)
		}
	}
	return false
}

// applyChangesNothing reports whether applying config onto live leaves
// live exactly as it is: every value config sets is live's (keyed list
// elements by key, set elements by value, atomic lists and maps whole),
// and the elements config shares with a live list are in the same order
// (a merge reorders them otherwise). It answers false for anything it
// cannot vouch for (a null, a field the schema lacks, duplicate keys),
// and the caller then merges for real.
func applyChangesNothing(n *cNode, live, config any) bool {
	if n == nil {
		return false
	}
	switch c := config.(type) {
	case map[string]any:
		l, ok := live.(map[string]any)
		if !ok || n.m == nil {
			return false
		}
		if n.m.atomic {
			return sameJSON(l, c)
		}
		for k, cv := range c {
			f := n.m.field(k)
			if f == nil {
				return false
			}
			lv, ok := l[k]
			if !ok || !applyChangesNothing(f, lv, cv) {
				return false
			}
		}
		return true
	case []any:
		l, ok := live.([]any)
		if !ok || n.l == nil {
			return false
		}
		if n.l.kind == atomicList {
			return sameJSON(l, c)
		}
		return sameElementsInOrder(n.l, l, c)
	case nil:
		return false
	default:
		return n.scalar && sameJSON(live, config)
	}
}

// sameElementsInOrder reports whether every element of config is in live
// (no element twice in either), in the same order, and applying each one
// onto live's changes nothing. Short lists are scanned, long ones indexed.
func sameElementsInOrder(l *cList, live, config []any) bool {
	if len(live) <= 16 {
		for i := range live {
			for j := i + 1; j < len(live); j++ {
				if sameIdentity(l, live[i], live[j]) {
					return false
				}
			}
		}
		next := 0
		for _, ce := range config {
			i := next
			for i < len(live) && !sameIdentity(l, live[i], ce) {
				i++
			}
			if i == len(live) || (l.kind == keyedList && !applyChangesNothing(l.elem, live[i], ce)) {
				return false
			}
			next = i + 1
		}
		return true
	}
	lix := indexList(l, live)
	if lix.dup || lix.bad {
		return false
	}
	last := -1
	for _, ce := range config {
		k, ok := identityOf(l, ce)
		if !ok {
			return false
		}
		i, found := lix.pos[k]
		if !found || i <= last {
			return false
		}
		last = i
		if l.kind == keyedList && !applyChangesNothing(l.elem, live[i], ce) {
			return false
		}
	}
	return true
}

// setWithin reports whether every field of a managed field set
// (fieldsV1, as the API server writes it) is one the config sets in the
// same form: each leaf a scalar, an atomic list or map, or an empty map
// or list; each element one of the config's. So an apply of config
// removes nothing this manager applied before.
func setWithin(n *cNode, fields map[string]any, config any) bool {
	if n == nil {
		return false
	}
	for key, sub := range fields {
		if key == "." {
			continue
		}
		child, ok := sub.(map[string]any)
		if !ok || len(key) < 2 || key[1] != ':' {
			return false
		}
		var (
			cv any
			ct *cNode
		)
		switch key[0] {
		case 'f':
			m, ok := config.(map[string]any)
			if !ok || n.m == nil {
				return false
			}
			name := key[2:]
			if cv, ok = m[name]; !ok {
				return false
			}
			if ct = n.m.field(name); ct == nil {
				return false
			}
		case 'k', 'v':
			l, ok := config.([]any)
			if !ok || n.l == nil || n.l.kind == atomicList {
				return false
			}
			pe, err := fieldpath.DeserializePathElement(key)
			if err != nil {
				return false
			}
			i := findElement(n.l, l, pe)
			if i < 0 {
				return false
			}
			cv, ct = l[i], n.l.elem
		default:
			return false
		}
		if len(child) == 0 || (len(child) == 1 && child["."] != nil) {
			// A member: the config must hold it whole.
			if !leafInSet(ct, cv, key[0] != 'f') {
				return false
			}
			continue
		}
		if !setWithin(ct, child, cv) {
			return false
		}
	}
	return true
}

// leafInSet reports whether a config value is a member of its field set
// as structured-merge-diff's ToFieldSet makes it: a scalar, an atomic
// list or map, an empty list or map, or (element) a list element.
func leafInSet(n *cNode, v any, element bool) bool {
	if element {
		return true
	}
	switch t := v.(type) {
	case map[string]any:
		return n.m != nil && (n.m.atomic || len(t) == 0)
	case []any:
		return n.l != nil && (n.l.kind == atomicList || len(t) == 0)
	}
	return n.scalar
}

// findElement is the position in list of the element pe names (a key or
// a value), -1 when there is none. It scans the list: callers look up a
// few elements of a list, or index it (indexList).
func findElement(l *cList, list []any, pe fieldpath.PathElement) int {
	want, ok := peKey(pe)
	if !ok {
		return -1
	}
	for i, e := range list {
		var k string
		if pe.Key != nil {
			k, ok = elementKey(l, e)
		} else {
			k, ok = setKey(e)
		}
		if ok && k == want {
			return i
		}
	}
	return -1
}

// peKey is the identity a path element names, in the form elementKey
// and setKey give.
func peKey(pe fieldpath.PathElement) (string, bool) {
	var b strings.Builder
	switch {
	case pe.Key != nil:
		for _, f := range *pe.Key {
			b.WriteString(f.Name)
			b.WriteByte(0)
			if !appendScalarKey(&b, normalizeDefault(f.Value.Unstructured())) {
				return "", false
			}
		}
	case pe.Value != nil:
		if !appendScalarKey(&b, normalizeDefault((*pe.Value).Unstructured())) {
			return "", false
		}
	default:
		return "", false
	}
	return b.String(), true
}

// pathElementOf is the path element that names list element e the way
// structured-merge-diff does.
func pathElementOf(s *schema.Schema, l *schema.List, e any) (fieldpath.PathElement, bool) {
	if kindOfList(l) == setList {
		v := value.NewValueInterface(e)
		return fieldpath.PathElement{Value: &v}, true
	}
	m, ok := e.(map[string]any)
	if !ok {
		return fieldpath.PathElement{}, false
	}
	fl := value.FieldList{}
	for _, k := range l.Keys {
		if v, ok := m[k]; ok {
			fl = append(fl, value.Field{Name: k, Value: value.NewValueInterface(v)})
		} else if d := keyDefault(s, l, k); d != nil {
			fl = append(fl, value.Field{Name: k, Value: value.NewValueInterface(normalizeDefault(d))})
		}
	}
	if len(fl) == 0 {
		return fieldpath.PathElement{}, false
	}
	fl.Sort()
	return fieldpath.PathElement{Key: &fl}, true
}
