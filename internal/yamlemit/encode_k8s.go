package yamlemit

import (
	"reflect"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/util/intstr"
)

// Encoders for the json.Marshaler types every Kubernetes object holds,
// which would otherwise be marshalled to JSON and parsed back. Each gives
// exactly the node its MarshalJSON's output parses to (TestSpecialEncoders
// and FuzzSpecialEncoders compare them); anything unusual takes the
// generic path.
var specialEncoders = map[reflect.Type]encoderFunc{
	reflect.TypeFor[resource.Quantity]():  quantityEncoder,
	reflect.TypeFor[intstr.IntOrString](): intOrStringEncoder,
	reflect.TypeFor[metav1.Time]():        timeEncoder,
}

// quantityEncoder: MarshalJSON is the quoted String() (its cached form
// or the canonical one), which is plain ASCII.
func quantityEncoder(t *Tree, v reflect.Value) (Node, error) {
	q, ok := reflect.TypeAssert[resource.Quantity](v)
	if !ok {
		return marshalerEncoder(t, v)
	}
	d0 := len(t.dec)
	t.dec = append(t.dec, q.String()...)
	return t.add(node{kind: String, text: t.decSpan(d0)}), nil
}

// intOrStringEncoder: MarshalJSON is json.Marshal of IntVal or StrVal.
func intOrStringEncoder(t *Tree, v reflect.Value) (Node, error) {
	is, ok := reflect.TypeAssert[intstr.IntOrString](v)
	if !ok {
		return marshalerEncoder(t, v)
	}
	switch is.Type {
	case intstr.Int:
		return intEncoder(t, reflect.ValueOf(int64(is.IntVal)))
	case intstr.String:
		return stringEncoder(t, reflect.ValueOf(is.StrVal))
	}
	return marshalerEncoder(t, v) // its error
}

// timeEncoder: MarshalJSON of the zero time is null.
func timeEncoder(t *Tree, v reflect.Value) (Node, error) {
	if tm, ok := reflect.TypeAssert[metav1.Time](v); ok && tm.IsZero() {
		return t.literalNode(Null, "null"), nil
	}
	return marshalerEncoder(t, v)
}
