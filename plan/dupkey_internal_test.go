package plan

import "testing"

// TestDuplicateKey: a key twice in one object, at any depth, in objects
// inside arrays, is found; the same key in two objects, a value equal to
// a key, and keys that differ are not duplicates; escapes are read as
// encoding/json reads them.
func TestDuplicateKey(t *testing.T) {
	for _, c := range []struct {
		js, key string
		dup     bool
	}{
		{`{"a": 1, "a": 2}`, "a", true},
		{`{"a": {"b": 1, "c": {"d": [1, {"e": 1, "e": 2}]}}}`, "e", true},
		{`{"items": [{"kind": "A"}, {"kind": "B", "kind": "C"}]}`, "kind", true},
		{`{"a": "\u0062", "\u0061": 1}`, "a", true},
		{`{"a\"b": 1, "x": "\"", "a\"b": 2}`, `a"b`, true},
		{`{"x": "\\", "y": "}", "z": "{\"x\": 1}", "x": 2}`, "x", true},
		{`{"x": "\\\"", "y": ",\"x\":"}`, "", false},
		{`{"a": [], "b": {}, "a": null}`, "a", true},
		{`{"a": {"a": {"a": 1}}}`, "", false},
		{`{"items": [{"kind": "A"}, {"kind": "B"}]}`, "", false},
		{`{"a": "a", "b": "a", "c": ["a", "a"]}`, "", false},
		{`{"a": [[{"x": 1}], [{"x": 2}]], "x": 3}`, "", false},
		{`{}`, "", false},
		{`{"a": {}, "b": [{}, {}], "c": 1}`, "", false},
	} {
		key, dup := duplicateKey([]byte(c.js))
		if dup != c.dup || key != c.key {
			t.Errorf("%s: got %q %v, want %q %v", c.js, key, dup, c.key, c.dup)
		}
	}
}
