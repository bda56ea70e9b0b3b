package invalid_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"math"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// TestFormatValue: every kind of value prints as YAML's flow style would,
// never as Go's %v (map[a:b], <nil>, 1e+21 for a literal 1e21).
func TestFormatValue(t *testing.T) {
	type named string
	var nilMap map[string]any
	var nilPtr *resource.Quantity
	q := resource.MustParse("4Gi")
	for _, c := range []struct {
		in   any
		want string
	}{
		{nil, "null"},
		{errors.New("boom"), `"boom"`},
		{(*field.Error)(nil), "null"},
		{json.RawMessage(`{"a":1}`), `"{\"a\":1}"`},
		{map[named]int{"b": 2, "a": 1}, "{a: 1, b: 2}"},
		{"4Xi", `"4Xi"`},
		{"", `""`},
		{"line\nbreak", `"line\nbreak"`},
		{json.Number("1e21"), "1e21"},
		{json.Number("2147483648"), "2147483648"},
		{true, "true"},
		{3, "3"},
		{int8(-3), "-3"},
		{int32(4), "4"},
		{int64(-9), "-9"},
		{uint(7), "7"},
		{uint64(math.MaxUint64), "18446744073709551615"},
		{2.5, "2.5"},
		{float32(0.5), "0.5"},
		{1e21, "1e+21"},
		{math.NaN(), ".nan"},
		{math.Inf(1), ".inf"},
		{math.Inf(-1), "-.inf"},
		{named("x"), `"x"`},
		{map[string]any{"b": 1, "a": "x y", "c": nil}, `{a: "x y", b: 1, c: null}`},
		{map[string]any{"cpu": json.Number("1")}, "{cpu: 1}"},
		{map[string]string{"a": "b"}, "{a: b}"},
		{map[string]any{"a": "true", "b": "3", "c": "-x", "d": "a/b"}, `{a: "true", b: "3", c: "-x", d: a/b}`},
		{[]any{"4Gi", 1, []any{}}, "[4Gi, 1, []]"},
		{[]string{}, "[]"},
		{nilMap, "null"},
		{nilPtr, "null"},
		{&q, `"4Gi"`},
		{q, `"4Gi"`},
		{corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("1")}, `{cpu: "1"}`},
		{time.Duration(0), `"0s"`},
	} {
		require.Equal(t, c.want, invalid.FormatValue(c.in), "%#v", c.in)
	}
}

// TestFormatValueBounded: long strings, numbers, keys and collections are
// cut with an ellipsis at about 120 bytes, at a character boundary, and a
// huge value costs no more than a short one.
func TestFormatValueBounded(t *testing.T) {
	huge := strings.Repeat("ж", 50<<20) // 100 MB of two-byte characters
	plain := strings.Repeat("k", 100<<20)
	digits := strings.Repeat("9", 100<<20)
	type named string
	big := map[string]any{}
	for i := 0; i < 100000; i++ {
		big[strings.Repeat("k", 10)+string(rune('a'+i%26))+strings.Repeat("v", i%7)] = i
	}
	deep := any("x")
	for i := 0; i < 10000; i++ {
		deep = []any{deep}
	}
	for name, v := range map[string]any{
		"long string": huge,
		"long number": json.Number(strings.Repeat("9", 1000)),
		"long key":    map[string]any{huge: 1},
		// Nested strings that YAML could print plain are where a check
		// of the whole string (lower-casing, number parsing) would cost.
		"long plain key":     map[string]any{plain: 1},
		"long digits key":    map[string]any{digits: 1},
		"long nested string": []any{plain},
		"long named string":  []any{named(plain)},
		"long named key":     map[named]int{named(plain): 1},
		"long raw JSON":      json.RawMessage(huge),
		"many keys":          big,
		"long list":          make([]any, 1<<20),
		"deep":               deep,
		"long bytes":         []byte(huge),
	} {
		t.Run(name, func(t *testing.T) {
			var before, after runtime.MemStats
			runtime.ReadMemStats(&before)
			out := invalid.FormatValue(v)
			runtime.ReadMemStats(&after)
			require.LessOrEqual(t, len(out), 140, out)
			require.True(t, utf8.ValidString(out), out)
			require.Contains(t, out, "…")
			// The work is bounded by what can show, not by the input: no
			// copy, lower-casing or conversion of a whole 100 MB string.
			// Bytes allocated, not time, so that a loaded machine does
			// not fail it; the many keys' sort allocates about 10 MB.
			require.Less(t, after.TotalAlloc-before.TotalAlloc, uint64(16<<20), "bytes allocated")
		})
	}
	s := invalid.FormatValue(huge)
	require.True(t, strings.HasPrefix(s, `"жж`) && strings.HasSuffix(s, `…"`), s)
}

// TestErrorBounded: a huge field (an unknown key of a megabyte) and a huge
// rule are cut too, so every message stays readable.
func TestErrorBounded(t *testing.T) {
	key := strings.Repeat("k", 1<<20)
	e := invalid.Errorf(key, strings.Repeat("v", 1<<20), "is not a value of this chart: %s", strings.Repeat("r", 1<<20))
	msg := e.Error()
	require.Less(t, len(msg), 1500)
	require.True(t, strings.HasPrefix(msg, "kkk"))
	require.Equal(t, 3, strings.Count(msg, "…"), msg)
	// The error itself keeps the field whole for programs.
	require.Equal(t, key, e.Field)
}

// TestAsFieldError: errors.As recovers a refusal, even wrapped, as
// apimachinery's *field.Error with the same field, value and rule.
func TestAsFieldError(t *testing.T) {
	err := fmt.Errorf("render: %w", invalid.Errorf("values.size", "0", "must be a positive quantity of bytes"))
	var fe *field.Error
	require.True(t, errors.As(err, &fe))
	require.Equal(t, field.ErrorTypeInvalid, fe.Type)
	require.Equal(t, "values.size", fe.Field)
	require.Equal(t, "0", fe.BadValue)
	require.Equal(t, "must be a positive quantity of bytes", fe.Detail)
	var ie *invalid.Error
	require.True(t, errors.As(err, &ie))
	require.Equal(t, "values.size", ie.Field)
	var other *json.SyntaxError
	require.False(t, errors.As(err, &other))
}
