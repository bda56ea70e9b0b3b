package invalid_test

import (
	"errors"
	"fmt"
	"io"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
)

// ExampleCollector_AddExcept: the values reader refused values.size, and
// the builder, given the default in its place, refused only the
// namespace; a builder that checks the size again is not reported twice.
func ExampleCollector_AddExcept() {
	var c invalid.Collector
	c.Addf("values.size", "0", "must be a positive quantity of bytes")
	built := invalid.Join(
		invalid.Errorf("values.size", "0", "must be a positive quantity of bytes"),
		invalid.Errorf("namespace", "default", "must be a tenant namespace"),
	)
	c.AddExcept(built, map[string]bool{"values.size": true})
	fmt.Println(c.Err())
	// Output:
	// values.size: invalid value "0": must be a positive quantity of bytes
	// namespace: invalid value "default": must be a tenant namespace
}

// TestAddExceptKeepsOtherErrors: only refusals of a reported field are
// left out; an error that holds no refusal is recorded whole, alone or
// joined with refusals; nothing (nil, a nil *Error, a List of none)
// records nothing.
func TestAddExceptKeepsOtherErrors(t *testing.T) {
	size := invalid.Errorf("size", "0", "rule size")
	ns := invalid.Errorf("namespace", "default", "rule namespace")
	reported := map[string]bool{"size": true}
	wrapped := fmt.Errorf("reading values: %w", io.ErrUnexpectedEOF)
	for _, c := range []struct {
		name     string
		err      error
		added    bool
		refusals []*invalid.Error
		others   []error
	}{
		{"nil", nil, false, nil, nil},
		{"nil *Error", (*invalid.Error)(nil), false, nil, nil},
		{"List of none", invalid.List{}, false, nil, nil},
		{"List of nil", invalid.List{nil}, false, nil, nil},
		{"plain error alone", io.EOF, true, nil, []error{io.EOF}},
		{"wrapped plain error", wrapped, true, nil, []error{wrapped}},
		{"reported refusal only", size, false, nil, nil},
		{"unreported refusal", ns, true, []*invalid.Error{ns}, nil},
		{"List", invalid.List{size, nil, ns}, true, []*invalid.Error{ns}, nil},
		{"mixed", errors.Join(size, io.EOF, ns), true, []*invalid.Error{ns}, []error{io.EOF}},
		{"mixed, reported refusal only", errors.Join(size, io.EOF), true, nil, []error{io.EOF}},
		{"mixed and wrapped", fmt.Errorf("render: %w", errors.Join(invalid.List{size, ns}, wrapped, (*invalid.Error)(nil))), true,
			[]*invalid.Error{ns}, []error{wrapped}},
	} {
		t.Run(c.name, func(t *testing.T) {
			var col invalid.Collector
			require.Equal(t, c.added, col.AddExcept(c.err, reported))
			err := col.Err()
			require.Equal(t, c.refusals, invalid.All(err))
			require.Equal(t, len(c.refusals)+len(c.others), col.Len())
			for _, o := range c.others {
				require.ErrorIs(t, err, o)
			}
			if !c.added {
				require.NoError(t, err)
			}
		})
	}
}

// TestAddEachRenames: keep may record a refusal in the caller's terms, or
// drop it; the order is All's.
func TestAddEachRenames(t *testing.T) {
	var c invalid.Collector
	c.Addf("--size", "lots", "must be a quantity")
	built := invalid.Join(
		invalid.Errorf("Size", "-1", "must be positive"),
		invalid.Errorf("Load", "huge", "must be s, m, l or xl"),
		invalid.Errorf("namespace", "default", "must be a tenant namespace"),
	)
	flags := map[string]string{"Size": "--size", "Load": "--load"}
	require.True(t, c.AddEach(built, func(e *invalid.Error) *invalid.Error {
		if e.Field == "Size" {
			return nil
		}
		if flag, ok := flags[e.Field]; ok {
			r := *e
			r.Field = flag
			return &r
		}
		return e
	}))
	var fields []string
	for _, e := range invalid.All(c.Err()) {
		fields = append(fields, e.Field)
	}
	require.Equal(t, []string{"--size", "--load", "namespace"}, fields)
	require.Equal(t, "Load", invalid.All(built)[1].Field, "the builder's refusal is not changed")
	require.False(t, c.AddEach(invalid.Errorf("Size", "-1", "r"), func(*invalid.Error) *invalid.Error { return nil }))
}
