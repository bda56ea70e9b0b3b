package invalid_test

import (
	"encoding/json"
	"errors"
	"fmt"
	"k8s.io/apimachinery/pkg/util/validation/field"
	"math"
	"math/big"
	"runtime"
	"strings"
	"testing"
	"time"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
	"gopkg.in/inf.v0"
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

// stringerOnPointer is a value whose String method is on its pointer.
type stringerOnPointer struct{ n int }

func (s *stringerOnPointer) String() string { return fmt.Sprintf("#%d", s.n) }

// TestFormatValueEveryKind: every kind of value an error can quote, in one
// table, prints as what it holds: strings and bytes with every byte that
// is not UTF-8 shown as \xNN (never as U+FFFD), numbers as numbers (a
// negative zero with its sign), resource.Quantity as its String (as the
// Go caller holds it) unless that misreads it, big numbers by their String
// methods whether given as values or pointers (never "{}"), maps and
// slices with their keys and items so printed, nil as null, and a value
// with hidden fields as its fields. Each message is one line of printable
// text.
func TestFormatValueEveryKind(t *testing.T) {
	huge := new(big.Int).Lsh(big.NewInt(1), 70000)
	type exported struct{ A int }
	type hidden struct{ a int }
	var nilInt *big.Int
	var nilQty *resource.Quantity
	var nilSlice []string
	for _, c := range []struct {
		in   any
		want string
	}{
		// Strings and bytes.
		{"x", `"x"`},
		{"a\xffb", `"a\xffb"`},
		{"\xc3", `"\xc3"`},
		{"é\x80", `"é\x80"`},
		{"\x1b]52;c;eA==\a", `"\x1b]52;c;eA==\a"`},
		{[]byte("a\xffb"), `"a\xffb"`},
		{json.RawMessage("{\"k\xfe\":1}"), `"{\"k\xfe\":1}"`},
		// Numbers.
		{3, "3"},
		{uint8(200), "200"},
		{-2.5, "-2.5"},
		{math.Copysign(0, -1), "-0"},
		{math.NaN(), ".nan"},
		{json.Number("1e-400"), "1e-400"},
		{json.Number("-0"), "-0"},
		{json.Number("0x10"), `"0x10"`},
		{writtenNumber("0x10"), "0x10"},
		{writtenNumber("+1.5"), "+1.5"},
		{writtenNumber("x"), `"x"`},
		// Quantities, as values and pointers.
		{resource.MustParse("1.5Gi"), `"1536Mi"`},
		{ptrTo(resource.MustParse("1.5Gi")), `"1536Mi"`},
		{resource.MustParse("1e3"), `"1e3"`},
		{resource.MustParse("8Ei"), `"9223372036854775807"`},
		{*resource.NewScaledQuantity(1, -200), `"1e-200"`},
		{*resource.NewScaledQuantity(1, 999999999), `"a number of 1 bits, e999999999"`},
		{nilQty, "null"},
		// Big numbers, as values and pointers.
		{*big.NewInt(12345), "12345"},
		{big.NewInt(-12345), "-12345"},
		{*huge, `"a number of 70001 bits, e0"`},
		{*big.NewFloat(1.5), "1.5"},
		{big.NewFloat(1e300), "1e+300"},
		{*big.NewRat(1, 3), `"1/3"`},
		{big.NewRat(4, 2), "2"},
		{*inf.NewDec(15, 1), "1.5"},
		{inf.NewDec(1, -3), "1000"},
		{*inf.NewDec(1, -1000000), `"a number of 1 bits, e1000000"`},
		{nilInt, "null"},
		// Maps and slices, keys and items printed alike.
		{map[string]any{"k\xff": json.Number("1"), "a": big.NewInt(2)}, `{a: 2, "k\xff": 1}`},
		{map[int]string{2: "b", 1: "a\xff"}, `{"1": "a\xff", "2": b}`},
		{[]any{"x\xff", resource.MustParse("2Gi"), nil, -0.0}, `["x\xff", 2Gi, null, 0]`},
		{[]any{math.Copysign(0, -1)}, "[-0]"},
		// Nil and what holds nothing.
		{nil, "null"},
		{nilSlice, "null"},
		{[]int{}, "[]"},
		// Other values.
		{exported{A: 1}, "{A: 1}"},
		{hidden{a: 1}, `"{a:1}"`},
		{hidden{}, "{}"},
		{stringerOnPointer{n: 7}, `"#7"`},
		{&stringerOnPointer{n: 7}, `"#7"`},
		{make(chan int), `"chan int"`},
		{func() {}, `"func()"`},
		{errors.New("bad \xff"), `"bad \xff"`},
	} {
		got := invalid.FormatValue(c.in)
		require.Equal(t, c.want, got, "%T %#v", c.in, c.in)
		msg := (&invalid.Error{Field: "f\xff", Value: c.in, Rule: "r\xfe"}).Error()
		require.Equal(t, `f\xff: invalid value `+got+`: r\xfe`, msg)
		require.Equal(t, invalid.Escape(msg), msg, "not printable: %q", msg)
		require.NotContains(t, msg, "\uFFFD")
	}
}

func ptrTo[T any](v T) *T { return &v }

// writtenNumber is a number that keeps its spelling, as values.Number.
type writtenNumber string

func (w writtenNumber) WrittenNumber() string { return string(w) }
