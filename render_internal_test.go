package etcdshapes

import (
	"errors"
	"io"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"
	"github.com/stretchr/testify/require"
)

// TestRenderResultKeepsOtherErrors: the values reader's refusals come
// first, then the stack's, and an error that holds no refusal is kept,
// also one joined with refusals.
func TestRenderResultKeepsOtherErrors(t *testing.T) {
	size := invalid.Errorf("values.size", "0", "must be a positive quantity of bytes")
	ns := invalid.Errorf("namespace", "default", "must be a tenant namespace")

	_, err := renderResult(nil, nil, size, errors.Join(ns, io.EOF))
	require.Equal(t, []*invalid.Error{size, ns}, invalid.All(err))
	require.ErrorIs(t, err, io.EOF)

	_, err = renderResult(nil, nil, size, io.EOF)
	require.Equal(t, []*invalid.Error{size}, invalid.All(err))
	require.ErrorIs(t, err, io.EOF)

	for _, none := range []error{nil, (*invalid.Error)(nil), invalid.List{}} {
		_, err := renderResult(nil, nil, size, none)
		require.Same(t, size, err)
	}
}

// TestRenderRefusesEachValueOnce: a value the values reader refuses (a size
// that parses but is negative, a version that is no X.Y.Z) reaches the
// builder as its default, so it is reported once.
func TestRenderRefusesEachValueOnce(t *testing.T) {
	_, err := Render(Request{Caller: naming.CallerEtcd, Namespace: "tenant-root", Values: map[string]any{"size": "-1Gi", "version": "latest"}})
	var fields []string
	for _, e := range invalid.All(err) {
		fields = append(fields, e.Field)
	}
	require.ElementsMatch(t, []string{"values.version", "values.size"}, fields, err)
	vals, verr := values.ReadEtcdChart(map[string]any{"size": "-1Gi", "version": "latest"})
	require.Error(t, verr)
	require.Empty(t, vals.Version, "the values reader leaves a refused version at its default, which the builder does not refuse again")
	require.True(t, vals.Size.IsZero(), "the values reader leaves a refused size at its default, which the builder does not refuse again")
}
