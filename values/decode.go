package values

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"strconv"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
	"github.com/etcdshapes/etcdshapes/internal/jsontree"
	"github.com/etcdshapes/etcdshapes/internal/yamljson"
	yamlv3 "go.yaml.in/yaml/v3"
)

// Limits of one values document, and of the CLI's values and live files,
// checked before parsing so that a mistaken /dev/zero, a huge file or a
// pathological document ends with an error in bounded time and memory.
const (
	// MaxBytes is 16 MiB, far above any real values file or stack.
	MaxBytes = inputlimit.MaxBytes
	// MaxIndicators bounds the YAML indicators of a document (line
	// breaks and "-", ":", ",", "[", "{"), an upper bound on its nodes:
	// YAML parsing costs far more than a document's size where every node
	// is one character. 100,000 are fifty times a rendered stack's.
	MaxIndicators = inputlimit.MaxIndicators
)

// decodeValues reads one values document the way Helm does (sigs.k8s.io/yaml:
// YAML 1.1 scalars, converted through JSON), then replaces every number by
// a json.Number that holds it as the user wrote it ("1e21", "2147483648"),
// so that an error can quote the input instead of its float64 rendering.
func decodeValues(doc []byte) (map[string]any, error) {
	var m map[string]any
	if err := unmarshalValues(doc, &m); err != nil {
		return nil, err
	}
	// The literal text comes from a second parse that keeps it; the
	// values themselves are Helm's. Where the two parses disagree (YAML 1.1
	// booleans, merge keys), the number keeps its canonical spelling.
	var root yamlv3.Node
	var node *yamlv3.Node
	if yamlv3.Unmarshal(doc, &root) == nil && root.Kind == yamlv3.DocumentNode && len(root.Content) == 1 {
		node = root.Content[0]
	}
	if m == nil {
		return nil, nil
	}
	return withLiterals(m, node, 0).(map[string]any), nil
}

// unmarshalValues is sigs.k8s.io/yaml's Unmarshal of doc into m, which is
// how Helm reads a values file (its first document; a key given twice is
// the later one), with its messages; but two keys of one map that are one
// JSON key (1 and "1"), of which Helm keeps either by chance, are a
// *yamljson.KeyError.
func unmarshalValues(doc []byte, m *map[string]any) error {
	js, err := yamljson.ToJSON(doc, yamljson.Options{})
	if err != nil {
		var ke *yamljson.KeyError
		if errors.As(err, &ke) {
			return ke
		}
		return fmt.Errorf("error converting YAML to JSON: %w", err)
	}
	if err := json.NewDecoder(bytes.NewReader(js)).Decode(m); err != nil {
		return fmt.Errorf("error unmarshaling JSON: while decoding JSON: %w", err)
	}
	return nil
}

// maxLiteralDepth bounds the walk; deeper values keep canonical numbers.
const maxLiteralDepth = 1000

// withLiterals returns v with every number turned into a json.Number,
// spelled as n (the same value's YAML node, or nil) spells it when that is
// a JSON number with the same value.
func withLiterals(v any, n *yamlv3.Node, depth int) any {
	for n != nil && n.Kind == yamlv3.AliasNode {
		n = n.Alias
	}
	if depth > maxLiteralDepth {
		n = nil
	}
	switch t := v.(type) {
	case map[string]any:
		var byKey map[string]*yamlv3.Node
		if n != nil && n.Kind == yamlv3.MappingNode {
			byKey = make(map[string]*yamlv3.Node, len(n.Content)/2)
			for i := 0; i+1 < len(n.Content); i += 2 {
				byKey[n.Content[i].Value] = n.Content[i+1]
			}
		}
		for k, e := range t {
			t[k] = withLiterals(e, byKey[k], depth+1)
		}
		return t
	case []any:
		var items []*yamlv3.Node
		if n != nil && n.Kind == yamlv3.SequenceNode && len(n.Content) == len(t) {
			items = n.Content
		}
		for i, e := range t {
			var c *yamlv3.Node
			if items != nil {
				c = items[i]
			}
			t[i] = withLiterals(e, c, depth+1)
		}
		return t
	case float64:
		if n != nil && n.Kind == yamlv3.ScalarNode && jsonnum.Is(n.Value) {
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil && f == t {
				return json.Number(n.Value)
			}
		}
		return floatNumber(t)
	case int64:
		return json.Number(strconv.FormatInt(t, 10))
	}
	return v
}

// floatNumber spells a float64 as a JSON number: plain decimals below 1e21,
// exponent form above (as JavaScript and YAML printers do). NaN and the
// infinities have no JSON spelling and stay float64.
func floatNumber(f float64) any {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return f
	}
	if math.Abs(f) < 1e21 {
		return json.Number(strconv.FormatFloat(f, 'f', -1, 64))
	}
	return json.Number(strconv.FormatFloat(f, 'g', -1, 64))
}

// normalizeValues copies a values tree built in Go into the shape Merge
// returns: maps with string keys become map[string]any, slices and arrays
// []any, and numbers of every Go kind json.Number, so that a value is the
// same whether it came from YAML or from Go code (int 3, uint 3 and
// float64 3 all mean 3). NaN and infinities stay float64 (and are refused
// where a number is read). Other values are kept as they are.
func normalizeValues(v any) any { return jsontree.Copy(v, normalizeLeaf) }

// normalizeLeaf is normalizeValues of a value that is neither a
// map[string]any nor an []any.
func normalizeLeaf(v any) any {
	switch t := v.(type) {
	case nil, string, bool, json.Number:
		return v
	case float64:
		return floatNumber(t)
	case float32:
		return floatNumber(float64(t))
	case int:
		return json.Number(strconv.FormatInt(int64(t), 10))
	case int64:
		return json.Number(strconv.FormatInt(t, 10))
	case int32:
		return json.Number(strconv.FormatInt(int64(t), 10))
	}
	rv := reflect.ValueOf(v)
	switch rv.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return json.Number(strconv.FormatInt(rv.Int(), 10))
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return json.Number(strconv.FormatUint(rv.Uint(), 10))
	case reflect.Float32, reflect.Float64:
		return floatNumber(rv.Float())
	case reflect.String:
		return rv.String()
	case reflect.Bool:
		return rv.Bool()
	case reflect.Map:
		if rv.Type().Key().Kind() != reflect.String {
			return v
		}
		if rv.IsNil() {
			return nil
		}
		out := make(map[string]any, rv.Len())
		it := rv.MapRange()
		for it.Next() {
			out[it.Key().String()] = normalizeValues(it.Value().Interface())
		}
		return out
	case reflect.Slice, reflect.Array:
		if rv.Kind() == reflect.Slice && rv.IsNil() {
			return nil
		}
		out := make([]any, rv.Len())
		for i := range out {
			out[i] = normalizeValues(rv.Index(i).Interface())
		}
		return out
	case reflect.Pointer, reflect.Interface:
		if rv.IsNil() {
			return nil
		}
		return normalizeValues(rv.Elem().Interface())
	}
	return v
}

// valueNumber reads a values number: a json.Number (as Merge and
// normalize produce) or a float64 NaN or infinity. ok is false for
// anything else.
func valueNumber(v any) (f float64, ok bool) {
	switch t := v.(type) {
	case json.Number:
		f, err := strconv.ParseFloat(string(t), 64)
		if err != nil {
			// A literal beyond float64's range: ParseFloat returns ±Inf
			// with a range error, which is the value Helm would hold.
			if ne, ok := err.(*strconv.NumError); ok && ne.Err == strconv.ErrRange {
				return f, true
			}
			return 0, false
		}
		return f, true
	case float64:
		return t, true
	}
	return 0, false
}
