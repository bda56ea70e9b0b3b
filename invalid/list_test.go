package invalid_test

import (
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// ExampleAll: a builder returns every refusal; All iterates them, the
// first is what the chart prints, and errors.As still finds it.
func ExampleAll() {
	var c invalid.Collector
	c.Addf("values.size", "0", "must be a positive quantity of bytes")
	c.Addf("values.replicas", 100, "is out of range: must be at most 99")
	err := c.Err()

	fmt.Println(err)
	for _, e := range invalid.All(err) {
		fmt.Println("field:", e.Field)
	}
	var first *invalid.Error
	fmt.Println(errors.As(err, &first), first.Field)
	fmt.Println(len(err.(invalid.List).ErrorList()))
	// Output:
	// values.size: invalid value "0": must be a positive quantity of bytes
	// values.replicas: invalid value 100: is out of range: must be at most 99
	// field: values.size
	// field: values.replicas
	// true values.size
	// 2
}

// TestCollectorOne: a single refusal is the *Error itself, byte for byte,
// not a one-element List.
func TestCollectorOne(t *testing.T) {
	var c invalid.Collector
	require.NoError(t, c.Err())
	require.False(t, c.Add(nil))
	e := invalid.Errorf("namespace", "x", "must start with tenant-")
	require.True(t, c.Add(e))
	require.Same(t, e, c.Err())
	require.NoError(t, invalid.Join(nil, nil))
	require.Same(t, e, invalid.Join(nil, e))
}

// TestListErrorsAs: errors.As finds the first refusal of a List, even
// wrapped, as an *Error and as a *field.Error; All flattens lists inside
// lists and wrapped errors in order; ErrorList keeps every one.
func TestListErrorsAs(t *testing.T) {
	a := invalid.Errorf("a", 1, "rule a")
	b := invalid.Errorf("b", 2, "rule b")
	c := invalid.Errorf("c", 3, "rule c")
	err := fmt.Errorf("render: %w", invalid.Join(a, invalid.Join(b, c)))
	var ie *invalid.Error
	require.True(t, errors.As(err, &ie))
	require.Same(t, a, ie)
	var fe *field.Error
	require.True(t, errors.As(err, &fe))
	require.Equal(t, "a", fe.Field)
	require.Equal(t, []*invalid.Error{a, b, c}, invalid.All(err))
	l := invalid.List(invalid.All(err))
	require.Len(t, l.ErrorList(), 3)
	require.Equal(t, "c", l.ErrorList()[2].Field)
	require.Len(t, a.ErrorList(), 1)
	require.Equal(t, "a: invalid value 1: rule a\nb: invalid value 2: rule b\nc: invalid value 3: rule c", l.Error())
	require.Nil(t, invalid.All(nil))
	require.Nil(t, invalid.All(io.EOF))
	require.True(t, errors.Is(err, b))
}

// TestCollectorOther: an error that holds no refusal is kept, after the
// refusals, not dropped.
func TestCollectorOther(t *testing.T) {
	var c invalid.Collector
	c.Add(io.EOF)
	require.Same(t, io.EOF, c.Err())
	c.Addf("a", 1, "rule")
	err := c.Err()
	require.True(t, errors.Is(err, io.EOF))
	require.Len(t, invalid.All(err), 1)
	require.Equal(t, 2, c.Len())

	// Joined with refusals, or wrapped with them, it is kept too, and so
	// is invalid.Join's.
	for _, mixed := range []error{
		errors.Join(invalid.Errorf("b", 2, "rule"), io.ErrUnexpectedEOF),
		fmt.Errorf("reading: %w", errors.Join(io.ErrUnexpectedEOF, invalid.Errorf("b", 2, "rule"))),
		invalid.Join(invalid.Errorf("b", 2, "rule"), io.ErrUnexpectedEOF),
	} {
		var m invalid.Collector
		require.True(t, m.Add(mixed))
		require.True(t, errors.Is(m.Err(), io.ErrUnexpectedEOF), m.Err().Error())
		require.Len(t, invalid.All(m.Err()), 1)
	}
}

// TestNilRefusals: a nil *Error, alone or in a List, is no refusal, so a
// Collector given one has nothing to report.
func TestNilRefusals(t *testing.T) {
	require.Empty(t, invalid.All((*invalid.Error)(nil)))
	require.Empty(t, invalid.All(invalid.List{nil}))
	var c invalid.Collector
	require.False(t, c.Add((*invalid.Error)(nil)))
	require.False(t, c.Add(invalid.List{nil}))
	require.NoError(t, c.Err())
}

// TestListBounded: thousands of refusals print as 20 lines and a count,
// while All gives every one.
func TestListBounded(t *testing.T) {
	var c invalid.Collector
	for i := 0; i < 5000; i++ {
		c.Addf(strings.Repeat("k", 1<<12), strings.Repeat("v", 1<<12), "rule %d", i)
	}
	err := c.Err()
	msg := err.Error()
	require.Less(t, len(msg), 21*1500)
	require.Equal(t, 20, strings.Count(msg, "\n"))
	require.True(t, strings.HasSuffix(msg, "… and 4980 more"), msg[len(msg)-40:])
	require.Len(t, invalid.All(err), 5000)
	require.Equal(t, "<nil>", invalid.List{nil}.Error())
	require.Empty(t, invalid.List{nil}.Unwrap())
}
