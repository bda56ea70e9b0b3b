package plan

import (
	"slices"
	"sync"

	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// cNode is a schema type compiled for the plan's walks: a map's fields in
// one Go map, a list's kind, keys and key defaults resolved once, named
// types linked. A type may accept a scalar, a list and a map (an untyped
// field): each part is set where it does.
type cNode struct {
	scalar bool
	m      *cMap
	l      *cList
}

type cMap struct {
	atomic bool
	fields map[string]*cNode
	// elem is the type of keys that are not fields; nil for a struct.
	elem *cNode
}

type cList struct {
	kind listKind
	// keys are the key fields by name, defaults their schema defaults
	// (nil where none), in the plan's number form.
	keys     []string
	defaults []any
	elem     *cNode
}

// field is the type of a map's key k; nil where the schema has none.
func (m *cMap) field(k string) *cNode {
	if f, ok := m.fields[k]; ok {
		return f
	}
	return m.elem
}

// compiledKey names a compiled root: a schema and a type in it.
type compiledKey struct {
	schema *schema.Schema
	name   string
}

var (
	compiledMu    sync.Mutex
	compiledTypes = map[compiledKey]*cNode{}
)

// compiledType is pt compiled, once per type.
func compiledType(pt typed.ParseableType) *cNode {
	name := ""
	if pt.TypeRef.NamedType != nil {
		name = *pt.TypeRef.NamedType
	}
	compiledMu.Lock()
	defer compiledMu.Unlock()
	if n, ok := compiledTypes[compiledKey{pt.Schema, name}]; ok {
		return n
	}
	c := &compiler{s: pt.Schema, named: map[string]*cNode{}}
	n := c.ref(pt.TypeRef)
	compiledTypes[compiledKey{pt.Schema, name}] = n
	return n
}

type compiler struct {
	s     *schema.Schema
	named map[string]*cNode
}

func (c *compiler) ref(tr schema.TypeRef) *cNode {
	if tr.NamedType != nil {
		key := *tr.NamedType
		if tr.ElementRelationship != nil {
			key += "\x00" + string(*tr.ElementRelationship)
		}
		if n, ok := c.named[key]; ok {
			return n
		}
		n := &cNode{}
		c.named[key] = n // before its parts: types may refer to themselves
		a, ok := c.s.Resolve(tr)
		if ok {
			c.atom(n, a)
		}
		return n
	}
	n := &cNode{}
	a := tr.Inlined
	if tr.ElementRelationship != nil {
		if r, ok := c.s.Resolve(tr); ok {
			a = r
		}
	}
	c.atom(n, a)
	return n
}

func (c *compiler) atom(n *cNode, a schema.Atom) {
	n.scalar = a.Scalar != nil
	if a.Map != nil {
		m := &cMap{atomic: a.Map.ElementRelationship == schema.Atomic, fields: make(map[string]*cNode, len(a.Map.Fields))}
		for _, f := range a.Map.Fields {
			m.fields[f.Name] = c.ref(f.Type)
		}
		et := a.Map.ElementType
		if et.NamedType != nil || et.Inlined.Scalar != nil || et.Inlined.List != nil || et.Inlined.Map != nil {
			m.elem = c.ref(et)
		}
		n.m = m
	}
	if a.List != nil {
		l := &cList{kind: kindOfList(a.List), elem: c.ref(a.List.ElementType)}
		if l.kind == keyedList {
			l.keys = slices.Clone(a.List.Keys)
			slices.Sort(l.keys)
			l.defaults = make([]any, len(l.keys))
			for i, k := range l.keys {
				if d := keyDefault(c.s, a.List, k); d != nil {
					l.defaults[i] = normalizeDefault(d)
				}
			}
		}
		n.l = l
	}
}
