package yamljson

import (
	"slices"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
	yamlv3 "go.yaml.in/yaml/v3"
)

// maxVisits bounds the keys Locate looks at, merge keys' repeated ones
// included, so that a document of merge keys of merge keys ends.
const maxVisits = 1 << 20

// Locate finds the first pair of keys of one map, in the document's order,
// that ToJSON refuses with o (with o.Unique, a key given twice; always,
// two keys that are one JSON key), with their positions; nil when there
// is none or the document does not parse. Keys are compared as
// go.yaml.in/yaml/v2 reads them (yes and true are one key), a << merge
// key's keys as if given at the merge key, as yaml.v2 merges them.
func Locate(doc []byte, o Options) *KeyError {
	var root yamlv3.Node
	if yamlv3.Unmarshal(doc, &root) != nil || root.Kind != yamlv3.DocumentNode || len(root.Content) == 0 {
		return nil
	}
	l := locator{unique: o.Unique, offset: max(o.Line, 1) - 1, ignored: o.Ignored}
	l.node(root.Content[0], nil)
	return l.found
}

type locator struct {
	unique  bool
	ignored func(path []string, key string) bool
	offset  int
	visits  int
	found   *KeyError
}

// seenKey is a key of a map: its value as yaml.v2 reads it and where.
type seenKey struct {
	value        any
	line, column int
	merge        bool
}

func (l *locator) done() bool { return l.found != nil || l.visits > maxVisits }

// node walks n's maps in the document's order. Aliases are not followed:
// what they name was walked where it is.
func (l *locator) node(n *yamlv3.Node, path []string) {
	switch n.Kind {
	case yamlv3.MappingNode:
		seen := make(map[string]seenKey, len(n.Content)/2)
		l.mapping(n, path, seen, nil)
	case yamlv3.SequenceNode:
		for i, c := range n.Content {
			if l.done() {
				return
			}
			l.node(c, append(path, "["+strconv.Itoa(i)+"]"))
		}
	}
}

// mapping checks n's keys into seen, the keys of the map at path, and
// walks its values. at is the merge key n's keys come in through (n is
// then merged into the map at path), nil for the map's own keys.
func (l *locator) mapping(n *yamlv3.Node, path []string, seen map[string]seenKey, at *yamlv3.Node) {
	for i := 0; i+1 < len(n.Content) && !l.done(); i += 2 {
		k, v := n.Content[i], n.Content[i+1]
		if k.Kind == yamlv3.ScalarNode && k.Tag == "!!merge" {
			// The merged keys are at the outermost merge key.
			pos := at
			if pos == nil {
				pos = k
			}
			l.merge(v, path, seen, pos, true)
			continue
		}
		s, ok := l.key(k, path, seen, at)
		if ok && !l.done() {
			l.node(v, append(path, s))
		}
	}
}

// merge checks the keys a merge key's value brings into the map at path:
// a map, an alias of one or a list of them (yaml.v2 takes the list from
// its end). walk says whether to walk the values too: an alias's were
// walked where it is.
func (l *locator) merge(v *yamlv3.Node, path []string, seen map[string]seenKey, at *yamlv3.Node, walk bool) {
	switch v.Kind {
	case yamlv3.AliasNode:
		if v.Alias != nil {
			l.mergeMap(v.Alias, path, seen, at, false)
		}
	case yamlv3.MappingNode:
		l.mergeMap(v, path, seen, at, walk)
	case yamlv3.SequenceNode:
		for i := len(v.Content) - 1; i >= 0 && !l.done(); i-- {
			l.merge(v.Content[i], path, seen, at, walk)
		}
	}
}

func (l *locator) mergeMap(m *yamlv3.Node, path []string, seen map[string]seenKey, at *yamlv3.Node, walk bool) {
	if m.Kind != yamlv3.MappingNode {
		return
	}
	if walk {
		l.mapping(m, path, seen, at)
		return
	}
	// Keys only: the values were walked where the alias's anchor is.
	for i := 0; i+1 < len(m.Content) && !l.done(); i += 2 {
		k := m.Content[i]
		if k.Kind == yamlv3.ScalarNode && k.Tag == "!!merge" {
			l.merge(m.Content[i+1], path, seen, at, false)
			continue
		}
		l.key(k, path, seen, at)
	}
}

// key checks one key into seen; s is its JSON key, ok false for a key
// yaml.v2 or the conversion refuses (a map, a list, null), which the
// decoding reports.
func (l *locator) key(k *yamlv3.Node, path []string, seen map[string]seenKey, at *yamlv3.Node) (s string, ok bool) {
	l.visits++
	value, ok := keyValue(k)
	if !ok {
		return "", false
	}
	s, ok = KeyString(value)
	if !ok {
		return "", false
	}
	pos := k
	if at != nil {
		pos = at
	}
	here := seenKey{value: value, line: pos.Line + l.offset, column: pos.Column, merge: at != nil}
	first, dup := seen[s]
	if !dup {
		seen[s] = here
		return s, true
	}
	same := sameValue(first.value, value)
	if same && !l.unique {
		// The later one wins, as Helm reads it.
		return s, true
	}
	if !same && l.ignored != nil && l.ignored(path, s) {
		return s, true // no reader reads it (Options.Ignored)
	}
	l.found = &KeyError{Path: slices.Clone(path), Key: s, Same: same,
		FirstLine: first.line, FirstColumn: first.column, FirstMerge: first.merge,
		Line: here.line, Column: here.column, Merge: here.merge}
	return s, true
}

// sameValue is a == b for the scalars yaml.v2 decodes keys to (NaN is
// never the same, as a map never finds it).
func sameValue(a, b any) bool { return a == b }

// keyValue is a scalar key as yaml.v2 decodes it: a string unless it is
// plain or tagged and might be another scalar, which yaml.v2 then
// resolves (yes, 0o17, 1_000, .inf, ~).
func keyValue(k *yamlv3.Node) (any, bool) {
	for i := 0; k.Kind == yamlv3.AliasNode && k.Alias != nil && i < 100; i++ {
		k = k.Alias
	}
	if k.Kind != yamlv3.ScalarNode {
		return nil, false
	}
	var text string
	if k.Style&yamlv3.TaggedStyle == 0 {
		if k.Style&(yamlv3.DoubleQuotedStyle|yamlv3.SingleQuotedStyle|yamlv3.LiteralStyle|yamlv3.FoldedStyle) != 0 || !mightResolve(k.Value) {
			return k.Value, true
		}
		text = k.Value
	} else {
		if k.Tag == "!!str" {
			return k.Value, true
		}
		text = k.Tag + " '" + strings.ReplaceAll(k.Value, "'", "''") + "'"
	}
	var v any
	if yamlv2.Unmarshal([]byte(text), &v) != nil {
		return nil, false
	}
	return v, true
}

// mightResolve says whether yaml.v2 might read a plain scalar as
// something other than a string: its resolve table's first characters
// (signs, digits, '.', the letters of y/n/true/false/on/off, ~) and the
// empty scalar (null).
func mightResolve(s string) bool {
	return s == "" || strings.IndexByte("+-.0123456789yYnNtTfFoO~", s[0]) >= 0
}
