// Package yamlemit prints JSON documents as YAML, byte for byte as
// sigs.k8s.io/yaml prints them after decoding into map[string]any with
// encoding/json, numbers kept as written (json.Number: an int64 such as a
// quota near 2^63 is printed exactly, not rounded through a float64); that
// is the path etcdshapes.Marshal used to take, only without the detour.
//
// The old path costs 0.3–0.5 ms per object: json.Marshal, json.Unmarshal into
// maps, json.Marshal again, a full YAML parse of that JSON by
// go.yaml.in/yaml/v2 into reflect-driven maps, and yaml.v2's event-driven
// emitter. This package parses the JSON once into a flat tree (one arena of
// nodes, strings pointing into the input where they need no unescaping),
// lets the caller apply its clean-ups to the tree, and writes YAML with a
// direct port of the parts of yaml.v2's emitter that a JSON document can
// reach: block mappings and sequences, "{}" and "[]" for empty ones, and
// the plain, single-quoted, double-quoted and literal scalar styles with
// yaml.v2's rules for choosing among them, folding at 80 columns and
// escaping.
//
// Tree.Encode builds the same tree from a Go value without writing JSON:
// a reflection walk with encoding/json's rules (typeFields, omitempty and
// omitzero, Marshaler and TextMarshaler receivers, base64 byte slices),
// struct fields kept in the order yaml.v2 prints them so their maps need
// no sorting, and direct paths for resource.Quantity, intstr.IntOrString
// and metav1.Time that equal their MarshalJSON. It is about 40% of the cost
// of writing and parsing the JSON; TestEncodeMatchesEncodingJSON,
// TestSpecialEncoders and FuzzEncode hold it to Parse of encoding/json's
// output.
//
// Every value the port does not reproduce exactly is refused with
// ErrFallback, and the caller prints that document the old way: identical
// bytes are the contract, speed is the bonus. The refused values are rare
// in Kubernetes objects: keys longer than 128 bytes, key sets yaml.v2 would
// order non-deterministically, duplicate keys, characters the old path
// rejects or rewrites (DEL, C1 controls, U+FFFE/U+FFFF, NEL), invalid UTF-8,
// unpaired surrogates, numbers float64 cannot hold, and nesting deeper than
// 1000.
package yamlemit
