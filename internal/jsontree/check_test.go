package jsontree_test

import (
	"errors"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/jsontree"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
)

// TestCheck: trees pass; a container reached again inside itself, through
// any kind of container, is refused where it is reached again; a tree
// deeper than MaxDepth or larger than MaxNodes is refused.
func TestCheck(t *testing.T) {
	shared := map[string]any{"x": 1}
	require.NoError(t, jsontree.Check("v", map[string]any{"a": shared, "b": shared, "c": []any{shared, shared}}), "shared, not cyclic")
	require.NoError(t, jsontree.Check("v", nil))
	require.NoError(t, jsontree.Check("v", map[string]string{"a": "b"}))

	m := map[string]any{}
	m["b"] = map[string]any{"c": m}
	l := []any{1, nil}
	l[1] = map[string]any{"l": l}
	typed := map[string][]map[string]any{}
	typed["t"] = []map[string]any{{"back": typed}}
	var p any
	p = &p
	for _, c := range []struct {
		v     any
		field string
	}{
		{m, "v.b.c"},
		{l, "v[1].l"},
		{typed, "v.t[0].back"},
		{&p, "v"},
		{map[string]any{"z": 1, "a": m}, "v.a.b.c"},
	} {
		err := jsontree.Check("v", c.v)
		var ne *invalid.Error
		require.True(t, errors.As(err, &ne), "%v", err)
		require.Equal(t, c.field, ne.Field)
		require.Contains(t, ne.Rule, "contains itself")
		_ = ne.Error() // prints, bounded, though the value is cyclic
	}

	deep := map[string]any{}
	for range jsontree.MaxDepth {
		deep = map[string]any{"a": deep}
	}
	require.NoError(t, jsontree.Check("v", deep), "MaxDepth levels below the root")
	require.ErrorContains(t, jsontree.Check("v", map[string]any{"a": deep}), "deeper than 1000 levels")

	wide := make([]any, jsontree.MaxNodes)
	require.ErrorContains(t, jsontree.Check("v", wide), "beyond the 1000000 values")
	require.NoError(t, jsontree.Check("v", wide[:jsontree.MaxNodes-1]))
}
