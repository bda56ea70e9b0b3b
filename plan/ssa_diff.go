package plan

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strconv"
	"strings"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// lookup finds values in a JSON tree by structured-merge-diff path,
// indexing each keyed list or set it meets once, so that looking up many
// elements of one list costs one pass over it.
type lookup struct {
	root  *cNode
	tree  any
	lists map[*any]listIndex
}

func newLookup(root *cNode, tree any) *lookup {
	return &lookup{root: root, tree: tree}
}

// get follows p from the root; ok is false when it leads nowhere.
func (k *lookup) get(p fieldpath.Path) (any, bool) {
	v, n := k.tree, k.root
	for _, pe := range p {
		switch {
		case pe.FieldName != nil:
			m, ok := v.(map[string]any)
			if !ok {
				return nil, false
			}
			c, ok := m[*pe.FieldName]
			if !ok {
				return nil, false
			}
			var next *cNode
			if n != nil && n.m != nil {
				next = n.m.field(*pe.FieldName)
			}
			v, n = c, next
		case pe.Index != nil:
			l, ok := v.([]any)
			if !ok || *pe.Index < 0 || *pe.Index >= len(l) {
				return nil, false
			}
			var next *cNode
			if n != nil && n.l != nil {
				next = n.l.elem
			}
			v, n = l[*pe.Index], next
		default:
			l, ok := v.([]any)
			if !ok || len(l) == 0 || n == nil || n.l == nil || n.l.kind == atomicList {
				return nil, false
			}
			want, ok := peKey(pe)
			if !ok {
				return nil, false
			}
			if k.lists == nil {
				k.lists = map[*any]listIndex{}
			}
			ix, seen := k.lists[&l[0]]
			if !seen {
				ix = indexList(n.l, l)
				k.lists[&l[0]] = ix
			}
			i, ok := ix.pos[want]
			if !ok {
				return nil, false
			}
			v, n = l[i], n.l.elem
		}
	}
	return v, true
}

// changesOf turns a comparison of the live object with the object after
// the apply into field changes: an added field or element is reported
// where it starts (an added container once, not each of its fields), a
// removed one as the apply removes it (an element whole, the fields of a
// map one by one), a changed value at its leaf; server fields (metadata other
// than labels, annotations and owner references; status) are left out.
// A quantity of a custom resource respelled with the same value is a
// change: the API server stores the new spelling (see quantityRespelled).
// Sorted by path.
func changesOf(root *cNode, live, after map[string]any, cmp *typed.Comparison, own *fieldpath.Set) []FieldChange {
	lk, ak := newLookup(root, live), newLookup(root, after)
	seen := map[string]bool{}
	var out []FieldChange
	add := func(c FieldChange) {
		if !seen[c.Path] {
			seen[c.Path] = true
			out = append(out, c)
		}
	}
	cmp.Added.Iterate(func(p fieldpath.Path) {
		if !appliedField(p) {
			return
		}
		top := p
		for i := 1; i < len(p); i++ {
			if _, ok := lk.get(p[:i]); !ok {
				top = p[:i]
				break
			}
		}
		v, _ := ak.get(top)
		add(FieldChange{Path: pathString(top), PathElements: pathElements(top), Type: FieldAdded, Desired: v})
	})
	// A removal is reported as what the manager applied and the apply
	// prunes: a list element it owned and that goes whole, other fields
	// one by one (a map left empty goes with them).
	// The leaves of an element reported whole come one after another:
	// the first finds the element, the others are below it.
	var whole fieldpath.Path
	iterateLeaves(cmp.Removed, nil, func(p fieldpath.Path) {
		if !appliedField(p) {
			return
		}
		if len(whole) > 0 && len(whole) < len(p) && whole.Equals(p[:len(whole)]) {
			return
		}
		top := p
		if own != nil {
			for i := 1; i < len(p); i++ {
				if _, kept := ak.get(p[:i]); !kept && p[i-1].FieldName == nil && own.Has(p[:i]) {
					top = p[:i]
					whole = top.Copy()
					break
				}
			}
		}
		v, _ := lk.get(top)
		add(FieldChange{Path: pathString(top), PathElements: pathElements(top), Type: FieldRemoved, Live: v})
	})
	cmp.Modified.Iterate(func(p fieldpath.Path) {
		if !appliedField(p) {
			return
		}
		lv, _ := lk.get(p)
		av, _ := ak.get(p)
		add(FieldChange{Path: pathString(p), PathElements: pathElements(p), Type: FieldChanged, Live: lv, Desired: av})
	})
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// iterateLeaves calls fn with every path of s that has no longer path of
// s below it.
func iterateLeaves(s *fieldpath.Set, prefix fieldpath.Path, fn func(fieldpath.Path)) {
	s.Members.Iterate(func(pe fieldpath.PathElement) {
		if _, parent := s.Children.Get(pe); !parent {
			fn(append(prefix[:len(prefix):len(prefix)], pe))
		}
	})
	s.Children.Iterate(func(pe fieldpath.PathElement) {
		child, _ := s.Children.Get(pe)
		iterateLeaves(child, append(prefix[:len(prefix):len(prefix)], pe), fn)
	})
}

// respelledQuantity is a quantity a change spells another way: where it
// is below the changed field (empty for the field itself) and both
// spellings.
type respelledQuantity struct {
	at          string
	live, spelt any
}

// quantitiesRespelled reports a change of a custom resource whose two
// sides differ only in the spelling of quantities of the same value ("0.1"
// and "100m"), which it lists: a quantity field, or an atomic list or map
// holding quantities (the VPA's containerPolicies). The API server stores
// a custom resource as it is sent (its quantities are int-or-string
// values to apiextensions-apiserver), so the apply rewrites them; a
// built-in kind's Go round trip prints the canonical form on both sides
// (roundTrip), so it never has such a change.
func quantitiesRespelled(c FieldChange) ([]respelledQuantity, bool) {
	n := len(c.PathElements)
	if c.Type != FieldChanged || n == 0 {
		return nil, false
	}
	key, _ := strings.CutPrefix(c.PathElements[n-1], "f:")
	parent := ""
	if n > 1 {
		parent, _ = strings.CutPrefix(c.PathElements[n-2], "f:")
	}
	var out []respelledQuantity
	if !onlyRespelled(key, parent, "", c.Live, c.Desired, &out) || len(out) == 0 {
		return nil, false
	}
	return out, true
}

// onlyRespelled walks l and d (the value of field key of a map that is
// field parent's value, at label below the change) and reports whether
// they differ at most in quantities' spellings, appending those to out.
func onlyRespelled(key, parent, label string, l, d any, out *[]respelledQuantity) bool {
	switch lt := l.(type) {
	case map[string]any:
		dt, ok := d.(map[string]any)
		if !ok || len(lt) != len(dt) {
			return false
		}
		keys := make([]string, 0, len(lt))
		for k := range lt {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			dv, ok := dt[k]
			if !ok || !onlyRespelled(k, key, label+"."+k, lt[k], dv, out) {
				return false
			}
		}
		return true
	case []any:
		dt, ok := d.([]any)
		if !ok || len(lt) != len(dt) {
			return false
		}
		for i := range lt {
			if !onlyRespelled("", "", fmt.Sprintf("%s[%d]", label, i), lt[i], dt[i], out) {
				return false
			}
		}
		return true
	}
	if canonicalJSON(l) == canonicalJSON(d) {
		return true
	}
	if isQuantityField(key, parent) && sameQuantity(l, d) {
		*out = append(*out, respelledQuantity{at: label, live: l, spelt: d})
		return true
	}
	return false
}

// keptFields are the fields of the object after the apply that other
// managers own and the desired object does not set: the apply leaves
// them to those managers. Each is reported where it leaves the desired
// object (a sidecar container once), with every manager owning it or
// fields below it. Sorted by path.
func keptFields(root *cNode, m *liveManaged, manager string, config, after map[string]any) []KeptField {
	if m == nil || !m.present {
		return nil
	}
	ck, ak := newLookup(root, config), newLookup(root, after)
	byPath := map[string]int{}
	type pathManager struct {
		path int
		mgr  Manager
	}
	owners := map[pathManager]bool{}
	var out []KeptField
	var walk func(fields map[string]any, path fieldpath.Path, mgr Manager)
	walk = func(fields map[string]any, path fieldpath.Path, mgr Manager) {
		for key, sub := range fields {
			if key == "." {
				continue
			}
			var pe fieldpath.PathElement
			if len(key) > 2 && key[:2] == "f:" {
				name := key[2:]
				pe = fieldpath.PathElement{FieldName: &name}
			} else {
				var err error
				if pe, err = fieldpath.DeserializePathElement(key); err != nil {
					continue
				}
			}
			at := append(path[:len(path):len(path)], pe)
			v, ok := ak.get(at)
			if !ok {
				continue
			}
			if _, inConfig := ck.get(at); !inConfig {
				if !appliedField(at) {
					continue
				}
				p := pathString(at)
				i, seen := byPath[p]
				if !seen {
					i = len(out)
					byPath[p] = i
					out = append(out, KeptField{Path: p, PathElements: pathElements(at), Value: v})
				}
				if !owners[pathManager{i, mgr}] {
					owners[pathManager{i, mgr}] = true
					out[i].Managers = append(out[i].Managers, mgr)
				}
				continue
			}
			if child, ok := sub.(map[string]any); ok && len(child) > 0 {
				walk(child, at, mgr)
			}
		}
	}
	for _, e := range m.entries {
		if e.mgr.isApplier(manager) {
			continue
		}
		for _, raw := range e.fields {
			walk(raw, nil, e.mgr)
		}
	}
	for i := range out {
		sortManagers(out[i].Managers)
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Path < out[j].Path })
	return out
}

// fieldSetOf reads a fieldsV1 tree into structured-merge-diff's set.
func fieldSetOf(raw map[string]any) (*fieldpath.Set, error) {
	b, err := json.Marshal(raw)
	if err != nil {
		return nil, err
	}
	s := &fieldpath.Set{}
	if err := s.FromJSON(bytes.NewReader(b)); err != nil {
		return nil, err
	}
	return s, nil
}

// checkFieldSet checks that a fieldsV1 tree is a field set: every key "."
// or a path element ("f:name", "k:{...}", "v:...", "i:0"), every value an
// object. A key's JSON is checked for its form (an object, a value, a
// number), which structured-merge-diff then reads; the errors are its own.
func checkFieldSet(raw map[string]any) error {
	for k, v := range raw {
		if k != "." && !strings.HasPrefix(k, "f:") && !plausiblePathElement(k) {
			if _, err := fieldpath.DeserializePathElement(k); err != nil {
				return fmt.Errorf("parsing key as path element: %w", err)
			}
		}
		m, ok := v.(map[string]any)
		if !ok {
			return fmt.Errorf("the value of %s is not an object", quoteKey(k))
		}
		if len(m) == 0 {
			continue // a leaf: nothing to iterate
		}
		if err := checkFieldSet(m); err != nil {
			return err
		}
	}
	return nil
}

// plausiblePathElement checks a key element ("k:{...}", a non-empty JSON
// object), a value element ("v:" and a JSON value) or an index ("i:0")
// without reading it.
func plausiblePathElement(k string) bool {
	if len(k) < 3 || k[1] != ':' {
		return false
	}
	body := k[2:]
	switch k[0] {
	case 'k':
		return body[0] == '{' && body != "{}" && json.Valid([]byte(body))
	case 'v':
		return json.Valid([]byte(body))
	case 'i':
		_, err := strconv.Atoi(body)
		return err == nil
	}
	return false
}

func quoteKey(k string) string {
	b, _ := json.Marshal(k)
	return string(b)
}
