package etcdshapes

import (
	"errors"
	"io"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
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
