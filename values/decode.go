package values

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"reflect"
	"sort"
	"strconv"
	"strings"
	"unicode/utf8"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
	"github.com/etcdshapes/etcdshapes/internal/jsontree"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/internal/yamljson"
	"github.com/etcdshapes/etcdshapes/internal/yamlnum"
	"github.com/etcdshapes/etcdshapes/invalid"
	yamlv3 "go.yaml.in/yaml/v3"
	"k8s.io/apimachinery/pkg/api/resource"
)

// Limits of one values document, checked before parsing so that a
// mistaken /dev/zero, a huge file or a pathological document ends with an
// error in bounded time and memory.
const (
	// MaxBytes is 16 MiB, far above any real values file.
	MaxBytes = inputlimit.MaxValuesBytes
	// MaxNodes bounds the YAML nodes of a values file's first document,
	// the one read (scalars, lists and maps, counted in one pass before
	// parsing, and once expanded where aliases repeat a node): 250,000,
	// some twenty times the values of a large umbrella chart. A document at the limit parses within about
	// a second and 100 MB (docs/limits.md).
	MaxNodes = inputlimit.MaxValuesNodes
	// MaxIndicators is MaxNodes.
	//
	// Deprecated: the bound was once on YAML indicators (line breaks,
	// "-", ":", ...), which a block scalar or a long string holds many
	// of; it is on nodes now. Use MaxNodes.
	MaxIndicators = MaxNodes
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
	// Two keys that are one JSON key where neither chart reads (the
	// platform's _namespace, say) are no refusal: the render is the same
	// whichever the decoder keeps.
	js, err := yamljson.ToJSON(doc, yamljson.Options{Ignored: ignoredByBoth})
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
		if n == nil || n.Kind != yamlv3.ScalarNode {
			return floatNumber(t)
		}
		if jsonnum.Is(n.Value) {
			if f, err := strconv.ParseFloat(n.Value, 64); err == nil && f == t {
				return json.Number(n.Value)
			}
			return floatNumber(t)
		}
		// A YAML 1.1 spelling ("0x10", "1_000", "+1.5", "007", ".5"):
		// kept as written, so that a refusal quotes it so; every
		// reader reads it as the number Helm reads (valueNumber, through
		// yamlnum.Decimal), and the affinity, which goes to the API,
		// as its JSON spelling (jsonNumbers).
		if n.Style == 0 {
			if d, ok := yamlnum.Decimal(n.Value); ok {
				if f, _, ok := jsonnum.Float(d); ok && (f == t || math.Signbit(f) != math.Signbit(t)) {
					return Number{Text: n.Value, JSON: jsonNumber(json.Number(n.Value))}
				}
			}
		}
		return floatNumber(t)
	case int64:
		return json.Number(strconv.FormatInt(t, 10))
	}
	return v
}

// Number is a number of a values document written in a YAML 1.1
// spelling that JSON has none for ("+1.5", "007", ".5", "0x10",
// "1_000", as Helm's reader takes them): Merge returns it in place of a
// json.Number, so that a refusal quotes it as written. Text is the
// number as written, JSON the number Helm reads, in JSON's spelling
// ("1.5", "7", "0.5", "16", "1000"; digits a float64 does not hold are
// kept, as for a json.Number, and refused where the number is read). It
// marshals as JSON, and the readers take it as they take a json.Number.
type Number struct {
	// Text is the number as the document writes it.
	Text string
	// JSON is the number Helm reads, in JSON's spelling.
	JSON json.Number
}

// MarshalJSON writes the number Helm reads.
func (n Number) MarshalJSON() ([]byte, error) { return []byte(n.JSON), nil }

// WrittenNumber is the number as written, which a refusal prints plain
// (package invalid).
func (n Number) WrittenNumber() string { return n.Text }

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
	case nil, string, bool, json.Number, Number:
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
	case resource.Quantity:
		// A Go caller's quantity (a size, a resource limit) is the
		// quantity string it prints, as YAML would hold it; one beyond
		// the quantity bounds is kept, for the reader to refuse by them
		// (printing it could cost what the bounds avoid).
		if quantity.Check("", t) == nil {
			if s := t.String(); quantity.Rule(s) == "" {
				if back, err := resource.ParseQuantity(s); err == nil && back.Cmp(t) == 0 {
					return s
				}
			}
		}
		return v
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
// normalize produce) or a float64 NaN or infinity. isNumber is false for
// anything else. A json.Number that no float64 holds as it is written
// (jsonnum.Float: a negative zero, a number too close to zero or too
// large for a float64, or more significant digits than one holds) is
// refused, an *invalid.Error naming field and quoting the number as
// written: Helm reads it as another number (0, an infinity, 3 for
// 3.0000000000000000001), so that a rule on the value would judge a
// number the user did not write.
func valueNumber(field string, v any) (f float64, isNumber bool, err error) {
	if n, ok := v.(Number); ok {
		// Read as its JSON number, refused as written.
		f, isNumber, err := valueNumber(field, n.JSON)
		if e, ok := err.(*invalid.Error); ok {
			cp := *e
			cp.Value = n
			err = &cp
		}
		return f, isNumber, err
	}
	switch t := v.(type) {
	case json.Number:
		f, loss, ok := jsonnum.Float(string(t))
		if !ok {
			// A Go caller's json.Number in another spelling.
			d, isYAML := yamlnum.Decimal(string(t))
			if !isYAML {
				return 0, false, nil
			}
			if f, loss, ok = jsonnum.Float(d); !ok {
				return 0, false, nil
			}
		}
		if loss != jsonnum.Exact {
			return f, true, invalid.Errorf(field, v, "%s", loss.Rule(f))
		}
		return f, true, nil
	case float64:
		return t, true, nil
	}
	return 0, false, nil
}

// jsonNumber is n in JSON's grammar: n itself when it is JSON's, else
// the number a YAML 1.1 spelling reads as (see withLiterals): its
// canonical float64, or, where the float64 does not hold it, its digits
// ("123_456_789_012_345_678" is 123456789012345678).
func jsonNumber(n json.Number) json.Number {
	if jsonnum.Is(string(n)) {
		return n
	}
	d, ok := yamlnum.Decimal(string(n))
	if !ok {
		return n
	}
	f, loss, ok := jsonnum.Float(d)
	if !ok {
		return n
	}
	if loss != jsonnum.Exact {
		return json.Number(jsonDecimal(d))
	}
	if num, isNumber := floatNumber(f).(json.Number); isNumber {
		return num
	}
	return n
}

// jsonNumbers is v with every json.Number in JSON's grammar (jsonNumber),
// maps and lists copied where they hold one.
func jsonNumbers(v any) any {
	switch t := v.(type) {
	case json.Number:
		return jsonNumber(t)
	case Number:
		return t.JSON
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			out[k] = jsonNumbers(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = jsonNumbers(e)
		}
		return out
	}
	return v
}

// jsonDecimal spells d, a decimal yamlnum.Decimal gives, in JSON's
// grammar with the same digits: no '+', a zero before a leading point and
// after a trailing one ("+.5e3" is "0.5e3", "1." is "1.0").
func jsonDecimal(d string) string {
	neg := strings.HasPrefix(d, "-")
	d = strings.TrimLeft(d, "+-")
	if strings.HasPrefix(d, ".") {
		d = "0" + d
	}
	if i := strings.IndexAny(d, "eE"); i > 0 && d[i-1] == '.' {
		d = d[:i] + "0" + d[i:]
	} else if strings.HasSuffix(d, ".") {
		d += "0"
	}
	// Leading zeros of the integer part ("007") are not JSON.
	intEnd := strings.IndexAny(d, ".eE")
	if intEnd < 0 {
		intEnd = len(d)
	}
	if trimmed := strings.TrimLeft(d[:intEnd], "0"); trimmed != d[:intEnd] {
		if trimmed == "" {
			trimmed = "0"
		}
		d = trimmed + d[intEnd:]
	}
	if neg {
		d = "-" + d
	}
	return d
}

// checkNumbers refuses, under v (maps in key order, then lists in order),
// the first number that valueNumber refuses, and the first key or string
// that is not UTF-8 (encoding/json, which decodes the affinity, would read
// each such byte as U+FFFD), naming it below field.
func checkNumbers(field string, v any) error {
	switch t := v.(type) {
	case map[string]any:
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			if !utf8.ValidString(k) {
				return invalid.Errorf(field+"."+k, k, "must be UTF-8 text: a JSON decoder reads each byte that is not as U+FFFD")
			}
			if err := checkNumbers(field+"."+k, t[k]); err != nil {
				return err
			}
		}
	case []any:
		for i, c := range t {
			if err := checkNumbers(field+"["+strconv.Itoa(i)+"]", c); err != nil {
				return err
			}
		}
	case string:
		if !utf8.ValidString(t) {
			return invalid.Errorf(field, t, "must be UTF-8 text: a JSON decoder reads each byte that is not as U+FFFD")
		}
	case json.Number, Number:
		_, _, err := valueNumber(field, t)
		return err
	}
	return nil
}
