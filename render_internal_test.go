package etcdshapes

import (
	"errors"
	"io"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/values"
	"github.com/stretchr/testify/require"
)

// TestWithoutRepeats: the builder's refusal of a field the values reader
// refused is left out; its other refusals, and any error that holds no
// refusal, are kept, also one joined with refusals.
func TestWithoutRepeats(t *testing.T) {
	size := invalid.Errorf("values.size", "0", "must be a positive quantity of bytes")
	again := invalid.Errorf("values.size", "0", "must be a positive quantity of bytes")
	ns := invalid.Errorf("namespace", "default", "must be a tenant namespace")

	err := withoutRepeats(size, errors.Join(again, ns, io.EOF))
	require.Equal(t, []*invalid.Error{size, ns}, invalid.All(err))
	require.ErrorIs(t, err, io.EOF)

	err = withoutRepeats(size, errors.Join(again, io.EOF))
	require.Equal(t, []*invalid.Error{size}, invalid.All(err))
	require.ErrorIs(t, err, io.EOF)

	err = withoutRepeats(size, io.EOF)
	require.Equal(t, []*invalid.Error{size}, invalid.All(err))
	require.ErrorIs(t, err, io.EOF)

	for _, none := range []error{nil, (*invalid.Error)(nil), invalid.List{}} {
		require.Same(t, size, withoutRepeats(size, none))
	}
}

// TestRenderRefusesEachValueOnce: a refused value the values reader still
// passes on (a size that parses but is negative, a version that is no
// X.Y.Z) is refused again by the builder under the same values key, and
// reported once.
func TestRenderRefusesEachValueOnce(t *testing.T) {
	_, err := Render(Request{Caller: CallerEtcd, Namespace: "tenant-root", Values: map[string]any{"size": "-1Gi", "version": "latest"}})
	var fields []string
	for _, e := range invalid.All(err) {
		fields = append(fields, e.Field)
	}
	require.ElementsMatch(t, []string{"values.version", "values.size"}, fields, err)
	vals, verr := values.EtcdChart(map[string]any{"size": "-1Gi", "version": "latest"})
	require.Error(t, verr)
	require.Equal(t, "latest", vals.Version, "the values reader passes the refused version on")
	require.Equal(t, "-1Gi", vals.Size.String(), "the values reader passes the refused size on")
}
