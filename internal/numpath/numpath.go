// Package numpath finds, in a YAML or JSON document, the first number a
// decoder reads as another number (a negative zero, or, for a number that
// is not an integer fitting an int64, jsonnum.Float's losses: an
// underflow to 0, an overflow to infinity, more digits than a float64
// holds) and the path of the field that holds it, so that a refusal can
// name the field and quote the number as written. It parses the document
// (yaml.v3's nodes, encoding/json's tokens), so it is for the documents a
// cheap pass (inputlimit.LexNumbers, LexJSON) found such a number in.
package numpath

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/internal/jsonnum"
	"github.com/etcdshapes/etcdshapes/internal/yamlnum"
	yamlv3 "go.yaml.in/yaml/v3"
)

// Found is a number a decoder does not read as written.
type Found struct {
	// Path is the field below the document's root, as the plan names
	// fields: "spec.replicas", "items[3].metadata.labels.a"; "" for the
	// root. A number that is a mapping key is named by the key.
	Path string
	// Text is the number as the document writes it.
	Text string
	// Reading is the float64 a decoder reads.
	Reading float64
	// Loss says what the reading loses.
	Loss jsonnum.Loss
}

// Value is Text as an *invalid.Error quotes it: a json.Number when it is
// one (printed plain, as written), else the string.
func (f *Found) Value() any {
	if jsonnum.Is(f.Text) {
		return json.Number(f.Text)
	}
	return f.Text
}

// Rule is the refusal's rule.
func (f *Found) Rule() string { return f.Loss.Rule(f.Reading) }

// Lossy reports what the decoders of live objects and of typed fields
// (yaml.v2 through sigs.k8s.io/yaml, then apimachinery's JSON, which
// keeps an integer that fits an int64 as one) lose of the plain scalar
// text: ok is false when they read no number there or read it exactly.
func Lossy(text string) (reading float64, loss jsonnum.Loss, ok bool) {
	d, isNumber := yamlnum.Decimal(text)
	if !isNumber {
		return 0, jsonnum.Exact, false
	}
	return LossyJSON(d)
}

// LossyJSON is Lossy of a number in JSON's grammar (or a decimal
// yamlnum.Decimal gives): an integer that fits an int64 is exact, but for
// a negative zero; any other is read as a float64 (jsonnum.Float).
func LossyJSON(text string) (reading float64, loss jsonnum.Loss, ok bool) {
	if i, err := strconv.ParseInt(text, 10, 64); err == nil && !(i == 0 && strings.HasPrefix(text, "-")) {
		return float64(i), jsonnum.Exact, false
	}
	f, loss, isNumber := jsonnum.Float(text)
	return f, loss, isNumber && loss != jsonnum.Exact
}

// YAML finds the first lossy number of doc's first document, in document
// order (a key before its value); nil when there is none or doc does not
// parse (its parser's error is left to the decoder that reads it).
func YAML(doc []byte) *Found {
	var root yamlv3.Node
	if err := yamlv3.NewDecoder(bytes.NewReader(doc)).Decode(&root); err != nil {
		return nil
	}
	w := yamlWalk{seen: map[*yamlv3.Node]bool{}}
	return w.node(&root, "")
}

type yamlWalk struct{ seen map[*yamlv3.Node]bool }

func (w *yamlWalk) node(n *yamlv3.Node, path string) *Found {
	if n == nil || w.seen[n] {
		return nil
	}
	w.seen[n] = true
	switch n.Kind {
	case yamlv3.DocumentNode:
		for _, c := range n.Content {
			if f := w.node(c, path); f != nil {
				return f
			}
		}
	case yamlv3.SequenceNode:
		for i, c := range n.Content {
			if f := w.node(c, path+"["+strconv.Itoa(i)+"]"); f != nil {
				return f
			}
		}
	case yamlv3.MappingNode:
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := n.Content[i], n.Content[i+1]
			at := join(path, k.Value)
			if f := w.scalar(k, at); f != nil {
				return f
			}
			if f := w.node(v, at); f != nil {
				return f
			}
		}
	case yamlv3.ScalarNode:
		return w.scalar(n, path)
	}
	return nil
}

// scalar checks a plain scalar without an explicit tag other than a
// number's.
func (w *yamlWalk) scalar(n *yamlv3.Node, path string) *Found {
	if n.Kind != yamlv3.ScalarNode || n.Style&^yamlv3.TaggedStyle != 0 {
		return nil
	}
	if n.Style&yamlv3.TaggedStyle != 0 && n.Tag != "!!int" && n.Tag != "!!float" {
		return nil
	}
	if f, loss, ok := Lossy(n.Value); ok {
		return &Found{Path: path, Text: n.Value, Reading: f, Loss: loss}
	}
	return nil
}

func join(path, key string) string {
	if path == "" {
		return key
	}
	return path + "." + key
}

// JSON finds the first lossy number of the JSON document doc, in document
// order; nil when there is none or doc is not JSON.
func JSON(doc []byte) *Found {
	dec := json.NewDecoder(bytes.NewReader(doc))
	dec.UseNumber()
	f, _ := jsonValue(dec, "")
	return f
}

var errEnd = errors.New("end of a collection")

// jsonValue reads one value (or the end of the collection it is in,
// errEnd) at path.
func jsonValue(dec *json.Decoder, path string) (*Found, error) {
	tok, err := dec.Token()
	if err != nil {
		if errors.Is(err, io.EOF) {
			return nil, err
		}
		return nil, err
	}
	switch t := tok.(type) {
	case json.Delim:
		switch t {
		case '{':
			for {
				kt, err := dec.Token()
				if err != nil {
					return nil, err
				}
				key, ok := kt.(string)
				if !ok {
					return nil, nil // '}'
				}
				if f, err := jsonValue(dec, join(path, key)); f != nil || err != nil {
					return f, err
				}
			}
		case '[':
			for i := 0; ; i++ {
				f, err := jsonValue(dec, path+"["+strconv.Itoa(i)+"]")
				if errors.Is(err, errEnd) {
					return nil, nil
				}
				if f != nil || err != nil {
					return f, err
				}
			}
		default:
			return nil, errEnd
		}
	case json.Number:
		if r, loss, ok := LossyJSON(string(t)); ok {
			return &Found{Path: path, Text: string(t), Reading: r, Loss: loss}, nil
		}
	}
	return nil, nil
}
