package jsontree

import (
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"
)

// Bounds of a tree a caller hands the library (values built in Go, live
// or desired unstructured objects), checked by Check before any walker
// recurses into it: the copies, normalizers, DeepCopy and printers all
// recurse, so a map that contains itself would overflow the stack (a
// fatal error no recover catches), and a tree that shares its subtrees
// (each level's map twice in the next) is exponentially large once
// walked.
const (
	// MaxDepth is the deepest nesting accepted: 1000 levels, as the values
	// decoder keeps literals to (a chart's values nest about 10 deep, a
	// Kubernetes object about 20, its managedFields as deep again).
	MaxDepth = 1000
	// MaxNodes is the most values (maps, lists and leaves, each time it
	// is reached) accepted in one tree: 1,000,000, some ten times what a
	// values file of MaxBytes or an object etcd stores (1.5 MiB) holds.
	MaxNodes = 1_000_000
)

// Check refuses a tree that a walker could not finish: one that contains
// itself (a map, slice or pointer reached again inside itself), nests
// deeper than MaxDepth or holds more than MaxNodes values (a value reached
// by several paths counts each time). It walks map[string]any and []any
// and, as the values readers do, any map, slice, array, pointer or
// interface; other values are leaves. The refusal is an *invalid.Error
// naming the place below field where the walk stopped ("values.a.b[2]").
func Check(field string, v any) error {
	// A first walk in map order, which costs no sorting; only a refused
	// tree is walked again in key order, so that it is refused at the
	// same place on every run.
	c := checker{root: field, onPath: map[visit]bool{}}
	if err := c.walk(v, 0); err == nil {
		return nil
	}
	c = checker{root: field, onPath: map[visit]bool{}, sorted: true}
	return c.walk(v, 0)
}

// visit identifies a container on the walk's path: its data pointer, its
// type and, for a slice, its length (a sub-slice shares the pointer).
type visit struct {
	ptr uintptr
	typ reflect.Type
	n   int
}

// step is a key or an index on the walk's path.
type step struct {
	key   string
	index int // -1 for a key
}

type checker struct {
	root   string
	path   []step
	nodes  int
	onPath map[visit]bool
	sorted bool // maps in key order
}

// refuse is the refusal of the value v at the walk's place.
func (c *checker) refuse(v any, format string, args ...any) error {
	var b strings.Builder
	b.WriteString(c.root)
	for _, p := range c.path {
		if p.index >= 0 {
			b.WriteString("[" + strconv.Itoa(p.index) + "]")
			continue
		}
		if b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p.key)
	}
	// The value is printed bounded, cycles and all (invalid.FormatValue).
	return invalid.Errorf(b.String(), v, format, args...)
}

// enter counts a value and checks the depth; the first error stops the walk.
func (c *checker) enter(v any, depth int) error {
	c.nodes++
	switch {
	case c.nodes > MaxNodes:
		return c.refuse(v, "is beyond the %d values a tree may hold (values reached by several paths count each time)", MaxNodes)
	case depth > MaxDepth:
		return c.refuse(v, "nests deeper than %d levels", MaxDepth)
	}
	return nil
}

// mark puts a container on the path; it refuses one already there.
func (c *checker) mark(id visit, v any) error {
	if c.onPath[id] {
		return c.refuse(v, "contains itself (a cycle): values must form a tree")
	}
	c.onPath[id] = true
	return nil
}

func (c *checker) walk(v any, depth int) error {
	if err := c.enter(v, depth); err != nil {
		return err
	}
	// The trees of decoded JSON without reflection, the others with it.
	switch t := v.(type) {
	case nil, string, bool, float64, int64, int:
		return nil
	case map[string]any:
		if t == nil {
			return nil
		}
		id := visit{ptr: reflect.ValueOf(t).Pointer(), typ: mapType}
		if err := c.mark(id, v); err != nil {
			return err
		}
		defer delete(c.onPath, id)
		if c.sorted {
			keys := make([]string, 0, len(t))
			for k := range t {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				if err := c.child(step{key: k, index: -1}, t[k], depth); err != nil {
					return err
				}
			}
			return nil
		}
		for k, e := range t {
			if err := c.child(step{key: k, index: -1}, e, depth); err != nil {
				return err
			}
		}
		return nil
	case []any:
		if len(t) == 0 {
			return nil
		}
		id := visit{ptr: reflect.ValueOf(t).Pointer(), typ: sliceType, n: len(t)}
		if err := c.mark(id, v); err != nil {
			return err
		}
		defer delete(c.onPath, id)
		for i, e := range t {
			if err := c.child(step{index: i}, e, depth); err != nil {
				return err
			}
		}
		return nil
	}
	return c.walkValue(reflect.ValueOf(v), depth)
}

// child walks e, a child at s of a container at depth.
func (c *checker) child(s step, e any, depth int) error {
	c.path = append(c.path, s)
	if err := c.walk(e, depth+1); err != nil {
		return err
	}
	c.path = c.path[:len(c.path)-1]
	return nil
}

var (
	mapType   = reflect.TypeFor[map[string]any]()
	sliceType = reflect.TypeFor[[]any]()
)

// walkValue is walk of any other map, slice, array, pointer or
// interface, through reflection.
func (c *checker) walkValue(v reflect.Value, depth int) error {
	var id visit
	switch v.Kind() {
	case reflect.Map, reflect.Pointer:
		if v.IsNil() {
			return nil
		}
		id = visit{ptr: v.Pointer(), typ: v.Type()}
	case reflect.Slice:
		if v.IsNil() || v.Len() == 0 {
			return nil
		}
		id = visit{ptr: v.Pointer(), typ: v.Type(), n: v.Len()}
	case reflect.Interface:
		if v.IsNil() {
			return nil
		}
		return c.walk(v.Elem().Interface(), depth)
	case reflect.Array:
	default:
		return nil
	}
	shown := func() any {
		if v.CanInterface() {
			return v.Interface()
		}
		return nil
	}
	if id.ptr != 0 {
		if err := c.mark(id, shown()); err != nil {
			return err
		}
		defer delete(c.onPath, id)
	}
	switch v.Kind() {
	case reflect.Pointer:
		return c.child0(v.Elem(), depth)
	case reflect.Map:
		type entry struct {
			name string
			v    reflect.Value
		}
		entries := make([]entry, 0, v.Len())
		for it := v.MapRange(); it.Next(); {
			name := "[" + invalid.FormatValue(it.Key().Interface()) + "]"
			if it.Key().Kind() == reflect.String {
				name = it.Key().String()
			}
			entries = append(entries, entry{name, it.Value()})
		}
		if c.sorted {
			sort.Slice(entries, func(i, j int) bool { return entries[i].name < entries[j].name })
		}
		for _, e := range entries {
			if err := c.child(step{key: e.name, index: -1}, valueOf(e.v), depth); err != nil {
				return err
			}
		}
	case reflect.Slice, reflect.Array:
		for i := 0; i < v.Len(); i++ {
			if err := c.child(step{index: i}, valueOf(v.Index(i)), depth); err != nil {
				return err
			}
		}
	}
	return nil
}

// child0 walks what a pointer points to, one level down, at the same place.
func (c *checker) child0(e reflect.Value, depth int) error {
	return c.walk(valueOf(e), depth+1)
}

// valueOf is v as an interface value, nil where it cannot be one.
func valueOf(v reflect.Value) any {
	if !v.IsValid() || !v.CanInterface() {
		return nil
	}
	return v.Interface()
}
