package values

import (
	"bytes"
	"encoding/json"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
	"github.com/etcdshapes/etcdshapes/invalid"
	yamlv3 "go.yaml.in/yaml/v3"
	corev1 "k8s.io/api/core/v1"
)

// spreadTypeError is the first value of the spread constraints' JSON js
// (the YAML string converted) that the strict decoder would refuse for
// its type, named by its element and field below spreadField
// ("…[0].maxSkew", "…[1].labelSelector.matchLabels.zone") and quoted as
// the document holds it; nil when there is none, or when js is not a map
// holding a topologySpreadConstraints list (the decoder's own refusal
// then names the list). The strict decoder refuses the same values (a
// type error comes before an unknown field there too), but names a Go
// type and no element ("cannot unmarshal number 3000000000 into Go
// struct field TopologySpreadConstraint.topologySpreadConstraints.maxSkew
// of type int32"). The walk follows corev1.TopologySpreadConstraint's
// JSON fields, so every field is checked, at any depth; elements in
// order, keys sorted; an unknown key is left to the strict decoder.
func spreadTypeError(doc []byte, js []byte) error {
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	var m map[string]any
	if d.Decode(&m) != nil {
		return nil
	}
	list, ok := m["topologySpreadConstraints"].([]any)
	if !ok {
		return nil
	}
	// The YAML nodes, to quote a scalar as the string spells it ("1e10",
	// "0x7fffffffff"), not as the JSON respells it.
	var root yamlv3.Node
	var items *yamlv3.Node
	if yamlv3.Unmarshal(doc, &root) == nil && root.Kind == yamlv3.DocumentNode && len(root.Content) == 1 {
		items = child(root.Content[0], "topologySpreadConstraints")
	}
	t := reflect.TypeFor[corev1.TopologySpreadConstraint]()
	for i, c := range list {
		if err := typeError(spreadField+"["+strconv.Itoa(i)+"]", c, index(items, i), t); err != nil {
			return err
		}
	}
	return nil
}

// child is the value node of key in the mapping n, nil for none.
func child(n *yamlv3.Node, key string) *yamlv3.Node {
	for n != nil && n.Kind == yamlv3.AliasNode {
		n = n.Alias
	}
	if n == nil || n.Kind != yamlv3.MappingNode {
		return nil
	}
	var v *yamlv3.Node
	for i := 0; i+1 < len(n.Content); i += 2 {
		if n.Content[i].Value == key {
			v = n.Content[i+1] // the later of a key given twice
		}
	}
	return v
}

// index is the i-th node of the sequence n, nil for none.
func index(n *yamlv3.Node, i int) *yamlv3.Node {
	for n != nil && n.Kind == yamlv3.AliasNode {
		n = n.Alias
	}
	if n == nil || n.Kind != yamlv3.SequenceNode || i >= len(n.Content) {
		return nil
	}
	return n.Content[i]
}

// written is v as the YAML node n writes it: a plain scalar number's
// text (a json.Number, printed unquoted), else v.
func written(v any, n *yamlv3.Node) any {
	if _, isNumber := v.(json.Number); !isNumber || n == nil || n.Kind != yamlv3.ScalarNode || n.Style != 0 {
		return v
	}
	if !jsonnum.Is(n.Value) {
		if num, ok := v.(json.Number); ok {
			return Number{Text: n.Value, JSON: num}
		}
	}
	return json.Number(n.Value)
}

// typeError checks v, a JSON value decoded with UseNumber, against t as
// encoding/json decodes into it: null is every type's zero; a struct
// takes an object (its fields matched by their JSON names, exactly, as
// the strict decoder matches them), a map an object, a slice an array,
// a string a string, an integer a JSON integer within its bits.
func typeError(field string, v any, n *yamlv3.Node, t reflect.Type) error {
	if v == nil {
		return nil
	}
	q := written(v, n)
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		m, ok := v.(map[string]any)
		if !ok {
			return invalid.Errorf(field, q, "must be a map (%s)", typeName(t))
		}
		for _, k := range sortedKeys(m) {
			if f, ok := jsonField(t, k); ok {
				if err := typeError(field+"."+k, m[k], child(n, k), f.Type); err != nil {
					return err
				}
			}
		}
	case reflect.Map:
		m, ok := v.(map[string]any)
		if !ok {
			return invalid.Errorf(field, q, "must be a map of %ss", kindName(t.Elem()))
		}
		for _, k := range sortedKeys(m) {
			if err := typeError(field+"."+k, m[k], child(n, k), t.Elem()); err != nil {
				return err
			}
		}
	case reflect.Slice:
		l, ok := v.([]any)
		if !ok {
			return invalid.Errorf(field, q, "must be a list of %ss", kindName(t.Elem()))
		}
		for i, e := range l {
			if err := typeError(field+"["+strconv.Itoa(i)+"]", e, index(n, i), t.Elem()); err != nil {
				return err
			}
		}
	case reflect.String:
		if _, ok := v.(string); !ok {
			return invalid.Errorf(field, q, "must be a string")
		}
	case reflect.Bool:
		if _, ok := v.(bool); !ok {
			return invalid.Errorf(field, q, "must be a boolean")
		}
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return intError(field, v, q, t.Bits())
	}
	return nil
}

// intError is the refusal of v for an integer field of bits bits, nil
// when the decoder reads it: a JSON integer (no fraction, no exponent)
// within the range.
func intError(field string, v, quoted any, bits int) error {
	name := "an int" + strconv.Itoa(bits)
	n, ok := v.(json.Number)
	if !ok {
		return invalid.Errorf(field, quoted, "must be a whole number (%s)", name)
	}
	text := string(n)
	if _, err := strconv.ParseInt(text, 10, bits); err == nil {
		return nil
	}
	lo, hi := -(int64(1) << (bits - 1)), int64(1)<<(bits-1)-1
	f, err := strconv.ParseFloat(text, 64)
	switch {
	case err == nil && f != math.Trunc(f):
		return invalid.Errorf(field, quoted, "must be a whole number (%s)", name)
	case err == nil && f >= float64(lo) && f <= float64(hi):
		return invalid.Errorf(field, quoted, "must be a whole number written without a fraction or an exponent (%s)", name)
	}
	return invalid.Errorf(field, quoted, "is out of range: must be %s, from %d to %d", name, lo, hi)
}

// jsonField is t's field whose JSON name is name.
func jsonField(t reflect.Type, name string) (reflect.StructField, bool) {
	for i := 0; i < t.NumField(); i++ {
		f := t.Field(i)
		tag, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if tag == "" {
			tag = f.Name
		}
		if tag == name && f.IsExported() {
			return f, true
		}
	}
	return reflect.StructField{}, false
}

// typeName names a struct type in words: "a topology spread constraint"
// for TopologySpreadConstraint.
func typeName(t reflect.Type) string {
	var b strings.Builder
	for i, r := range t.Name() {
		if r >= 'A' && r <= 'Z' {
			if i > 0 {
				b.WriteByte(' ')
			}
			r += 'a' - 'A'
		}
		b.WriteRune(r)
	}
	return "a " + b.String()
}

// kindName names the values of an element type: "string", "map",
// "list", "whole number".
func kindName(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "string"
	case reflect.Struct, reflect.Map:
		return "map"
	case reflect.Slice:
		return "list"
	case reflect.Bool:
		return "boolean"
	}
	return "whole number"
}

func sortedKeys(m map[string]any) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}
