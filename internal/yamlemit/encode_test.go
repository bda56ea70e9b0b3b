package yamlemit

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strings"
	"testing"
	"time"

	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// viaJSON is what Encode must equal: Parse of encoding/json's output
// (without HTML escaping, as the printer's encoder writes it).
func viaJSON(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	var tr Tree
	if err := tr.Parse(b.Bytes()); err != nil {
		return nil, err
	}
	return tr.AppendYAML(nil)
}

func viaEncode(v any) ([]byte, error) {
	var tr Tree
	if err := tr.Encode(v); err != nil {
		return nil, err
	}
	return tr.AppendYAML(nil)
}

// sameAsJSON fails unless Encode prints v exactly as Parse of its JSON,
// or both refuse it (Encode may also fall back where the other path
// prints, never the reverse... both fall back or error alike).
func sameAsJSON(t *testing.T, name string, v any) {
	t.Helper()
	want, wantErr := viaJSON(v)
	got, err := viaEncode(v)
	switch {
	case wantErr != nil && err != nil:
		return
	case wantErr != nil:
		t.Fatalf("%s: the JSON path fails (%v) but Encode printed %q", name, wantErr, got)
	case err != nil:
		if !errors.Is(err, ErrFallback) {
			t.Fatalf("%s: Encode fails (%v) where the JSON path printed %q", name, err, want)
		}
		if !strings.Contains(name, "may fall back") {
			t.Fatalf("%s: Encode falls back where the JSON path printed %q", name, want)
		}
	case !bytes.Equal(got, want):
		t.Fatalf("%s:\n got: %q\nwant: %q", name, got, want)
	}
}

type valueMarshaler struct{ s string }

func (m valueMarshaler) MarshalJSON() ([]byte, error) { return json.Marshal("v:" + m.s) }

type ptrMarshaler struct{ n int }

func (m *ptrMarshaler) MarshalJSON() ([]byte, error) {
	return []byte(fmt.Sprintf(` {"n": %d, "list": [1, "two", null, {"x": "é"}]} `, m.n)), nil
}

type textKey struct{ a, b string }

func (k textKey) MarshalText() ([]byte, error) { return []byte(k.a + "/" + k.b), nil }

type ptrText struct{ s string }

func (p *ptrText) MarshalText() ([]byte, error) { return []byte("t:" + p.s), nil }

type valZeroer struct{ x int }

func (z valZeroer) IsZero() bool { return z.x == 42 }

type ptrZeroer struct{ x int }

func (z *ptrZeroer) IsZero() bool { return z.x == 7 }

type Inner struct {
	A string `json:"a"`
	B int    `json:"b,omitempty"`
}

type Deep struct{ Inner }

type tagged struct {
	Inner
	*Deep
	Plain      string
	Renamed    int                `json:"renamed_field"`
	Skipped    string             `json:"-"`
	Dash       string             `json:"-,"`
	OmitE      []string           `json:"omitE,omitempty"`
	OmitZ      time.Time          `json:"omitZ,omitzero"`
	OmitZC     valZeroer          `json:"omitZC,omitzero"`
	OmitZP     ptrZeroer          `json:"omitZP,omitzero"`
	OmitZPtr   *ptrZeroer         `json:"omitZPtr,omitzero"`
	Ptr        *int               `json:"ptr"`
	NilPtr     *int               `json:"nilPtr"`
	Iface      any                `json:"iface"`
	NilIface   any                `json:"nilIface"`
	Bytes      []byte             `json:"bytes"`
	NilBytes   []byte             `json:"nilBytes"`
	Array      [3]uint8           `json:"array"`
	Map        map[string]any     `json:"map"`
	NilMap     map[string]int     `json:"nilMap"`
	IntKeys    map[int]string     `json:"intKeys"`
	UintKeys   map[uint8]bool     `json:"uintKeys"`
	TextKeys   map[textKey]int    `json:"textKeys"`
	VM         valueMarshaler     `json:"vm"`
	VMPtr      *valueMarshaler    `json:"vmPtr"`
	PM         ptrMarshaler       `json:"pm"`
	PMNil      *ptrMarshaler      `json:"pmNil"`
	PT         ptrText            `json:"pt"`
	Num        json.Number        `json:"num"`
	EmptyNum   json.Number        `json:"emptyNum"`
	F32        float32            `json:"f32"`
	F64        float64            `json:"f64"`
	Tiny       float64            `json:"tiny"`
	Huge       float64            `json:"huge"`
	NegZero    float64            `json:"negZero"`
	U64        uint64             `json:"u64"`
	I64        int64              `json:"i64"`
	Bool       bool               `json:"bool,omitempty"`
	Invalid    string             `json:"invalid"`
	Controls   string             `json:"controls"`
	Unicode    string             `json:"unicode"`
	Nested     [][]map[string]any `json:"nested"`
	unexported string
}

// dupTags has two fields of one name at one level, which encoding/json
// drops both of; built at run time, since vet refuses such tags.
func dupTags() any {
	typ := reflect.StructOf([]reflect.StructField{
		{Name: "A", Type: reflect.TypeFor[int](), Tag: `json:"a"`},
		{Name: "B", Type: reflect.TypeFor[int](), Tag: `json:"a"`},
		{Name: "C", Type: reflect.TypeFor[int](), Tag: `json:"c"`},
	})
	v := reflect.New(typ).Elem()
	v.Field(0).SetInt(1)
	v.Field(1).SetInt(2)
	v.Field(2).SetInt(3)
	return v.Interface()
}

func TestEncodeMatchesEncodingJSON(t *testing.T) {
	n := 5
	full := tagged{
		Inner: Inner{A: "inner"}, Deep: &Deep{Inner{A: "deep", B: 2}},
		Plain: "plain", Renamed: 3, Skipped: "x", Dash: "dash",
		OmitZ: time.Time{}, OmitZC: valZeroer{42}, OmitZP: ptrZeroer{7}, OmitZPtr: &ptrZeroer{7},
		Ptr: &n, Iface: map[string]any{"k": []any{1.5, "s", nil, true}},
		Bytes: []byte("bytes\x00\xff"), Array: [3]uint8{1, 2, 3},
		Map:      map[string]any{"b": 1, "a": "x", "c": map[string]any{}, "d": []any{}, "e": nil},
		IntKeys:  map[int]string{-1: "m", 10: "t", 2: "two"},
		UintKeys: map[uint8]bool{0: true, 255: false},
		TextKeys: map[textKey]int{{"a", "b"}: 1, {"c", "d"}: 2},
		VM:       valueMarshaler{"x"}, VMPtr: &valueMarshaler{"p"}, PM: ptrMarshaler{9}, PT: ptrText{"t"},
		Num: "1e21", F32: 0.1, F64: 1.0 / 3, Tiny: 1e-9, Huge: 1.5e300, NegZero: math.Copysign(0, -1),
		U64: math.MaxUint64, I64: math.MinInt64, Bool: true,
		Invalid: "a\xffb\xc3", Controls: "\x01\b\f\n\r\t\x1f", Unicode: "é\u2028\u2029😀",
		Nested:     [][]map[string]any{{{"x": 1}}, nil, {}},
		unexported: "u",
	}
	sameAsJSON(t, "full", &full)
	sameAsJSON(t, "full by value", full)
	sameAsJSON(t, "zero", tagged{})
	sameAsJSON(t, "zero ptr", &tagged{})
	for i, v := range []any{
		nil, 1, -1, uint(3), 1.5, float32(1e-7), float32(1e21), 1e20, 123456789012345678.0, 1e15, 99999999999999999.0,
		"s", "", true, []int(nil), []int{}, map[string]int(nil), map[string]int{},
		[]any{nil, 1, "a"}, [0]int{}, json.Number("12345678901234567890"), json.Number("-0"), json.Number("1.0e-7"),
		map[string]any{strings.Repeat("k", 129): 1}, map[string]any{strings.Repeat("k", 128): 1},
		map[string]any{"a\x7fb": 1}, "a\x7fb", "\u0085", "\ufffe", "a\u009fb",
		&ptrMarshaler{1}, (*ptrMarshaler)(nil), valueMarshaler{"v"},
		math.Inf(1), math.NaN(), make(chan int), func() {}, complex(1, 2),
		struct {
			S string `json:"s,string"`
		}{"x"},
		struct {
			I int `json:"i,string"`
		}{3},
		map[textKey]string{{"k", "v"}: "x"},
		[]byte{}, []byte(nil),
		dupTags(),
	} {
		name := fmt.Sprintf("value %d (%T)", i, v)
		if strings.Contains(name, ",string") {
			name += " may fall back" // the ",string" option: documented, no Kubernetes type uses it
		}
		sameAsJSON(t, name, v)
	}
}

// TestSpecialEncoders: the fast paths for Quantity, IntOrString and Time
// give exactly what their MarshalJSON gives.
func TestSpecialEncoders(t *testing.T) {
	type holder struct {
		Q   resource.Quantity             `json:"q"`
		QP  *resource.Quantity            `json:"qp"`
		QL  corev1.ResourceList           `json:"ql"`
		IS  intstr.IntOrString            `json:"is"`
		ISP *intstr.IntOrString           `json:"isp"`
		T   metav1.Time                   `json:"t"`
		TP  *metav1.Time                  `json:"tp"`
		M   map[string]intstr.IntOrString `json:"m"`
	}
	for _, q := range []string{"0", "1", "1.5", "100m", "1Gi", "1536Mi", "1e3", "1E3", "0.000001", "123456789", "5Ei", "9223372036854775807", "1.073741824e+09", "-1", "12e-3"} {
		qq := resource.MustParse(q)
		now := metav1.NewTime(time.Date(2026, 11, 30, 1, 2, 3, 0, time.UTC))
		sameAsJSON(t, "quantity "+q, &holder{
			Q: qq, QP: &qq, QL: corev1.ResourceList{corev1.ResourceCPU: qq},
			IS: intstr.FromString(q), ISP: ptrTo(intstr.FromInt32(-3)), T: now, TP: &now,
			M: map[string]intstr.IntOrString{"a": intstr.FromString("\"quoted\"\n"), "b": intstr.FromInt32(2147483647)},
		})
	}
	sameAsJSON(t, "zero", &holder{})
	sameAsJSON(t, "bad IntOrString", &holder{IS: intstr.IntOrString{Type: 7}})
	computed := resource.NewMilliQuantity(1500, resource.DecimalSI)
	sameAsJSON(t, "computed quantity", map[string]any{"q": *computed, "b": resource.NewQuantity(1<<30, resource.BinarySI)})
}

func ptrTo[T any](v T) *T { return &v }

// FuzzEncode: typed Kubernetes objects filled from arbitrary JSON (any
// field, any value encoding/json accepts into it) print identically by
// Encode and by Parse of their JSON.
func FuzzEncode(f *testing.F) {
	for _, s := range []string{
		`{"spec":{"containers":[{"name":"a","image":"x:1","resources":{"limits":{"cpu":"1"}}}]}}`,
		`{"metadata":{"name":"n","labels":{"a":"b"},"creationTimestamp":"2026-01-02T03:04:05Z"},"spec":{"schedule":"0 * * * *"}}`,
		`{"rules":[{"apiGroups":[""],"resources":["secrets"],"verbs":["get"],"resourceNames":["a\u0000b"]}]}`,
		`{"spec":{"ports":[{"port":2379,"targetPort":"client"},{"port":1,"targetPort":5}]}}`,
		`{"data":{"k":"AAEC/w=="},"stringData":{"s":"é\n"}}`,
		`{"apiVersion":"v1","kind":"X","spec":{"n":1e400}}`,
	} {
		f.Add([]byte(s), uint8(0))
	}
	f.Fuzz(func(t *testing.T, js []byte, which uint8) {
		var v any
		switch which % 6 {
		case 0:
			v = &corev1.Pod{}
		case 1:
			v = &batchv1.CronJob{}
		case 2:
			v = &rbacv1.Role{}
		case 3:
			v = &corev1.Service{}
		case 4:
			v = &corev1.Secret{}
		default:
			u := &unstructured.Unstructured{}
			if err := u.UnmarshalJSON(js); err != nil {
				return
			}
			sameAsJSON(t, "unstructured", u)
			return
		}
		if json.Unmarshal(js, v) != nil {
			return
		}
		sameAsJSON(t, fmt.Sprintf("%T", v), v)
	})
}
