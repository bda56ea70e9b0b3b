// Package jsontree copies trees of decoded JSON (map[string]any, []any and
// leaves), for the packages that copy or convert such trees: the plan,
// the values decoder and the schema generator; and checks that a tree a
// caller hands the library is one (Check: no cycle, bounded depth and
// size) before anything recurses into it.
package jsontree

// Copy returns a copy of v in which every map[string]any and []any is new
// and every other value is leaf's result for it, or the value itself where
// leaf is nil. A leaf that holds a tree of another shape converts it
// itself (it may call Copy).
func Copy(v any, leaf func(any) any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, c := range t {
			out[k] = Copy(c, leaf)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			out[i] = Copy(c, leaf)
		}
		return out
	}
	if leaf == nil {
		return v
	}
	return leaf(v)
}
