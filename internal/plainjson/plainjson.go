// Package plainjson encodes JSON that is read as text (chart files, the
// dashboard model, generated tables) rather than embedded in HTML, so <, >
// and & stay as written: PromQL, Go templates and patterns use them; and
// decodes JSON with its numbers as written, so that an int64 above 2^53
// (a quota of a size in the PiB) is not rounded through a float64.
package plainjson

import (
	"bytes"
	"encoding/json"
)

// Marshal is json.Marshal without HTML escaping, each level indented by
// indent ("" for one line), with no newline at the end.
func Marshal(v any, indent string) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if indent != "" {
		enc.SetIndent("", indent)
	}
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(b.Bytes(), []byte("\n")), nil
}

// Decode reads the first JSON value of data into v, numbers as
// json.Number.
func Decode(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	return dec.Decode(v)
}

// DecodeMap is Decode of a JSON object into a map.
func DecodeMap(data []byte) (map[string]any, error) {
	var m map[string]any
	if err := Decode(data, &m); err != nil {
		return nil, err
	}
	return m, nil
}
