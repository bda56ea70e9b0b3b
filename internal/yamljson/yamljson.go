// Package yamljson reads a YAML or JSON document into the JSON tree that
// Kubernetes and Helm read from it, as sigs.k8s.io/yaml's YAMLToJSON does:
// go.yaml.in/yaml/v2's parser (YAML 1.1 scalars: yes is true), every map
// key made a string (1 is "1"). It refuses what that conversion leaves to
// chance: two keys of one map that are one JSON key (1 and "1", true and
// "true"), of which sigs.k8s.io/yaml keeps the one Go's map order gives
// last, another on the next run. With Options.Unique it refuses a key
// given twice as well (also through a << merge key), as the API server's
// strict decoding does (YAMLToJSONStrict) where YAMLToJSON keeps the later
// one; with Options.OneDocument it refuses a document followed by another
// (after a "..." end marker, a second JSON value), which YAMLToJSON drops.
//
// A document that passes costs what YAMLToJSON costs: the parser's strict
// mode finds a key given twice as it builds each map, and the conversion
// to string keys finds the other pairs. Only a refused document is parsed
// again (Locate, with go.yaml.in/yaml/v3, whose nodes have positions) to
// say where.
package yamljson

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"reflect"
	"slices"
	"strconv"
	"strings"

	yamlv2 "go.yaml.in/yaml/v2"
)

// Options say what ToJSON refuses beyond two keys that are one JSON key.
// The zero value reads as Helm reads a values file: a key given twice is
// the later one, and what follows the first document is ignored.
type Options struct {
	// Unique refuses a key given twice in one map (a *KeyError with
	// Same), as the API server's strict decoding does.
	Unique bool
	// OneDocument refuses a document after the first (a
	// *DocumentsError).
	OneDocument bool
	// Line is the line of the input the document starts on, so that
	// positions count from the start of a file of several documents; 0
	// counts from the document's own start, as 1 does.
	Line int
	// Ignored, when set, says which entries no reader of the document
	// reads: key of the map at path (JSON keys from the top; indices as
	// "[i]"). Two keys of such an entry's map that are one JSON key are
	// then no refusal (which one a reader kept could change nothing); the
	// value kept is the one whose key YAML gave as a string, else as the
	// first of bool, int, int64, uint64 and float64.
	Ignored func(path []string, key string) bool
}

// KeyError is two keys of one map that are one JSON key.
type KeyError struct {
	// Path is the map's place in the document, its keys (as JSON keys)
	// and "[i]" indices from the top; empty for the document's top map.
	Path []string
	// Key is the JSON key both keys are.
	Key string
	// Same says the two keys are one YAML value: a key given twice
	// (a: 1, a: 2). Otherwise they are two values of one JSON spelling
	// (1 and "1", yes and "true").
	Same bool
	// FirstLine, FirstColumn and Line, Column are where the first and
	// the second key are (counted from 1, and from Options.Line); 0 when
	// not known. A key that a << merge key brings in is at the merge key.
	FirstLine, FirstColumn, Line, Column int
	// FirstMerge says the first key comes in through a << merge key.
	FirstMerge bool
	// Merge says the second key comes in through a << merge key.
	Merge bool
	// Parser is the parser's message, when the second parse could not
	// place the keys (and Key is then "" if it does not say).
	Parser string
}

// Error names the key, where it is and what is wrong with it.
func (e *KeyError) Error() string {
	what := "a key given twice in one map"
	if !e.Same {
		what = "two keys of one map that are one JSON key"
	}
	if e.Key == "" {
		return what + ": " + e.Parser
	}
	where := e.Where()
	if where != "" {
		where = " (" + where + ")"
	}
	return fmt.Sprintf("%s: %q at %s%s", what, e.Key, e.Field(""), where)
}

// Field is the key's place below prefix, as the library names fields:
// prefix.path.key, indices as [i] ("live[0].metadata.labels.app").
func (e *KeyError) Field(prefix string) string {
	var b strings.Builder
	b.WriteString(prefix)
	for _, s := range append(e.Path[:len(e.Path):len(e.Path)], e.Key) {
		if !strings.HasPrefix(s, "[") && b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(s)
	}
	return b.String()
}

// Where says where the two keys are: "lines 3 and 9", "line 1, columns 2
// and 9", with "(through the << merge key)" after a merged one; "" when
// not known.
func (e *KeyError) Where() string {
	if e.Line == 0 || e.FirstLine == 0 {
		return ""
	}
	first, second := merged(e.FirstMerge), merged(e.Merge)
	if e.Line == e.FirstLine {
		return fmt.Sprintf("line %d, columns %d%s and %d%s", e.Line, e.FirstColumn, first, e.Column, second)
	}
	return fmt.Sprintf("lines %d%s and %d%s", e.FirstLine, first, e.Line, second)
}

func merged(m bool) string {
	if m {
		return " (through the << merge key)"
	}
	return ""
}

// DocumentsError is a document followed by another.
type DocumentsError struct {
	// Next is the line the next one starts on (counted from
	// Options.Line), 0 when not known.
	Next int
}

// Error says that there is another document, and where it starts.
func (e *DocumentsError) Error() string {
	if e.Next > 0 {
		return fmt.Sprintf("holds another document or JSON value from line %d after the first", e.Next)
	}
	return "holds another document or JSON value after the first"
}

// ToJSON is the document's JSON, as sigs.k8s.io/yaml's YAMLToJSON prints
// it, or an error: a parser's, a *KeyError or a *DocumentsError.
func ToJSON(doc []byte, o Options) ([]byte, error) {
	v, err := Decode(doc, o)
	if err != nil {
		return nil, err
	}
	return json.Marshal(v)
}

// Decode is the document as YAMLToJSON converts it before printing:
// map[string]any, []any and the parser's scalars (string, bool, int,
// int64, uint64, float64, nil); nil for an empty document.
func Decode(doc []byte, o Options) (any, error) {
	dec := yamlv2.NewDecoder(bytes.NewReader(doc))
	dec.SetStrict(o.Unique)
	var v any
	if err := dec.Decode(&v); err != nil && err != io.EOF {
		// Decoding into an interface, the strict mode's only type
		// errors are keys set twice.
		var te *yamlv2.TypeError
		if o.Unique && errors.As(err, &te) {
			if ke := Locate(doc, o); ke != nil {
				return nil, ke
			}
			return nil, &KeyError{Same: true, Parser: strings.Join(te.Errors, "; ")}
		}
		return nil, err
	}
	if o.OneDocument {
		var next any
		if err := dec.Decode(&next); err != io.EOF {
			return nil, &DocumentsError{Next: nextDocument(doc, o.Line)}
		}
	}
	var out any
	var err error
	if o.Ignored != nil {
		var path []string
		out, err = jsonableIgnoring(v, o.Ignored, &path)
	} else {
		out, err = jsonable(v)
	}
	if err != nil {
		// Go's map order picked the error: the first refused key in
		// the document's order is the one to report.
		if ke := Locate(doc, o); ke != nil {
			return nil, ke
		}
		return nil, err
	}
	return out, nil
}

// jsonable converts the parser's maps to string keys as sigs.k8s.io/yaml's
// convertToJSONableObject does (without a target type), refusing two keys
// that become one with a *KeyError.
func jsonable(v any) (any, error) {
	switch t := v.(type) {
	case map[any]any:
		m := make(map[string]any, len(t))
		for k, e := range t {
			s, ok := KeyString(k)
			if !ok {
				return nil, fmt.Errorf("unsupported map key of type: %s, key: %+#v, value: %+#v", reflect.TypeOf(k), k, e)
			}
			if _, dup := m[s]; dup {
				return nil, &KeyError{Key: s}
			}
			c, err := jsonable(e)
			if err != nil {
				var ke *KeyError
				if errors.As(err, &ke) {
					ke.Path = append([]string{s}, ke.Path...)
				}
				return nil, err
			}
			m[s] = c
		}
		return m, nil
	case []any:
		l := make([]any, len(t))
		for i, e := range t {
			c, err := jsonable(e)
			if err != nil {
				var ke *KeyError
				if errors.As(err, &ke) {
					ke.Path = append([]string{"[" + strconv.Itoa(i) + "]"}, ke.Path...)
				}
				return nil, err
			}
			l[i] = c
		}
		return l, nil
	}
	return v, nil
}

// jsonableIgnoring is jsonable but for the keys of entries ignored says
// no reader reads (Options.Ignored): *path is v's place, a stack that
// each level pushes onto and pops (a copy a level would cost the square
// of the depth).
func jsonableIgnoring(v any, ignored func([]string, string) bool, path *[]string) (any, error) {
	switch t := v.(type) {
	case map[any]any:
		m := make(map[string]any, len(t))
		// kept is the rank of the key whose value m holds, where two
		// keys are one JSON key in an ignored entry.
		var kept map[string]int
		for k, e := range t {
			s, ok := KeyString(k)
			if !ok {
				return nil, fmt.Errorf("unsupported map key of type: %s, key: %+#v, value: %+#v", reflect.TypeOf(k), k, e)
			}
			if _, dup := m[s]; dup {
				if !ignored(*path, s) {
					return nil, &KeyError{Path: slices.Clone(*path), Key: s}
				}
				if keyRank(k) >= kept[s] {
					continue
				}
			}
			*path = append(*path, s)
			c, err := jsonableIgnoring(e, ignored, path)
			*path = (*path)[:len(*path)-1]
			if err != nil {
				return nil, err
			}
			if kept == nil {
				kept = map[string]int{}
			}
			m[s], kept[s] = c, keyRank(k)
		}
		return m, nil
	case []any:
		l := make([]any, len(t))
		for i, e := range t {
			*path = append(*path, "["+strconv.Itoa(i)+"]")
			c, err := jsonableIgnoring(e, ignored, path)
			*path = (*path)[:len(*path)-1]
			if err != nil {
				return nil, err
			}
			l[i] = c
		}
		return l, nil
	}
	return v, nil
}

// keyRank orders the kinds of key that can give one JSON key: a string
// first, then bool, int, int64, uint64, float64.
func keyRank(k any) int {
	switch k.(type) {
	case string:
		return 0
	case bool:
		return 1
	case int:
		return 2
	case int64:
		return 3
	case uint64:
		return 4
	}
	return 5
}

// KeyString is the JSON key of a key as go.yaml.in/yaml/v2 decodes it,
// spelled as sigs.k8s.io/yaml spells it (a float with float32's
// precision, as yaml.v2 prints one); ok is false for the types it refuses
// (null, a uint64 above int64).
func KeyString(k any) (string, bool) {
	switch t := k.(type) {
	case string:
		return t, true
	case int:
		return strconv.Itoa(t), true
	case int64:
		return strconv.FormatInt(t, 10), true
	case float64:
		s := strconv.FormatFloat(t, 'g', -1, 32)
		switch s {
		case "+Inf":
			s = ".inf"
		case "-Inf":
			s = "-.inf"
		case "NaN":
			s = ".nan"
		}
		return s, true
	case bool:
		return strconv.FormatBool(t), true
	}
	return "", false
}

// nextDocument is the line (from line) where what follows the first
// document starts, 0 when not found: after the first JSON value of a
// document that starts with one, or after a "..." end marker.
func nextDocument(doc []byte, line int) int {
	line = max(line, 1)
	trimmed := bytes.TrimLeft(doc, " \t\r\n")
	if len(trimmed) > 0 && (trimmed[0] == '{' || trimmed[0] == '[') {
		dec := json.NewDecoder(bytes.NewReader(doc))
		var raw json.RawMessage
		if dec.Decode(&raw) == nil {
			off := int(dec.InputOffset())
			rest := doc[off:]
			skip := len(rest) - len(bytes.TrimLeft(rest, " \t\r\n"))
			return line + bytes.Count(doc[:off+skip], []byte("\n"))
		}
	}
	n := 0
	ended := false
	for l := range bytes.Lines(doc) {
		t := bytes.TrimSpace(l)
		if ended && len(t) > 0 && t[0] != '#' {
			return line + n
		}
		if bytes.HasPrefix(l, []byte("...")) && (len(t) == 3 || t[3] == ' ' || t[3] == '\t' || t[3] == '#') {
			ended = true
		}
		n++
	}
	return 0
}
