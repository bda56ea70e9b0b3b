package plan

import (
	"bytes"
	"encoding/json"
	"errors"
	"sort"
	"strings"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/internal/yamljson"
	"github.com/etcdshapes/etcdshapes/invalid"
	utiljson "k8s.io/apimachinery/pkg/util/json"
	kjson "sigs.k8s.io/json"
)

// readDocument parses one document of a live file, field ("live[3]"),
// which starts on line start of the input, into its JSON tree (nil for an
// empty document), as the API server's strict decoding reads it (see
// ReadObjects); liveDocuments has checked it.
func readDocument(field string, raw []byte, start int) (any, error) {
	var v any
	// A JSON document (kubectl get -o json) is read as JSON: the same
	// tree, without the YAML parser's cost.
	if js := bytes.TrimSpace(raw); bytes.HasPrefix(js, []byte("{")) && json.Valid(js) {
		strict, err := kjson.UnmarshalStrict(js, &v, kjson.DisallowDuplicateFields)
		if err != nil {
			return nil, invalid.Errorf(field, inputlimit.FirstLine(raw), "must be YAML: %v", err)
		}
		if len(strict) > 0 {
			// Placed by the YAML parser (JSON is YAML), else by the
			// JSON decoder's path.
			if ke := yamljson.Locate(raw, yamljson.Options{Unique: true, Line: start}); ke != nil {
				return nil, keyRefusal(field, ke)
			}
			return nil, jsonKeyRefusal(field, strict[0])
		}
		return v, nil
	}
	js, err := yamljson.ToJSON(raw, yamljson.Options{Unique: true, OneDocument: true, Line: start})
	if err != nil {
		var ke *yamljson.KeyError
		var de *yamljson.DocumentsError
		switch {
		case errors.As(err, &ke):
			return nil, keyRefusal(field, ke)
		case errors.As(err, &de):
			return nil, invalid.Errorf(field, inputlimit.FirstLine(raw), "%v: a document is one object or List %s", de, appended)
		}
		return nil, invalid.Errorf(field, inputlimit.FirstLine(raw), "must be YAML: %v", err)
	}
	if err := utiljson.Unmarshal(js, &v); err != nil {
		return nil, invalid.Errorf(field, inputlimit.FirstLine(raw), "must be YAML: %v", err)
	}
	return v, nil
}

// strictRule is why a key given twice is refused.
const strictRule = "a key may appear once in a map, as in the API server's strict decoding (keeping the later one would plan against what the cluster does not hold)"

// topRule is what a key given twice at a document's top means.
const topRule = "; at a document's top, two objects or Lists ran together " + appended

// appended is what a document holding two objects most likely is, and
// its fix.
const appended = "(kubectl get outputs appended without a line --- between them?): put a line --- between documents"

// keyRefusal is the refusal of two keys of one map of the live document
// field: the key's place and the key, where both are and why.
func keyRefusal(field string, ke *yamljson.KeyError) error {
	if ke.Key == "" {
		return invalid.Errorf(field, "", "holds a key twice in one map (%s): %s", ke.Parser, strictRule)
	}
	where := ke.Where()
	if where != "" {
		where = " (" + where + ")"
	}
	rule := "appears twice in one map" + where + ": " + strictRule
	if !ke.Same {
		rule = "is two keys of one map that are one JSON key" + where + ", as 1 and \"1\" are: the API server would keep either, by chance"
	}
	if len(ke.Path) == 0 {
		rule += topRule
	}
	return invalid.Errorf(ke.Field(field), ke.Key, "%s", rule)
}

// jsonKeyRefusal is keyRefusal of a key the JSON decoder found twice and
// the YAML parser could not place: the decoder's path names it.
func jsonKeyRefusal(field string, err error) error {
	path := err.Error()
	if fe, ok := err.(interface{ FieldPath() string }); ok {
		path = fe.FieldPath()
	}
	key := path[strings.LastIndexByte(path, '.')+1:]
	rule := "appears twice in one map: " + strictRule
	if !strings.Contains(path, ".") {
		rule += topRule
	}
	return invalid.Errorf(field+"."+path, key, "%s", rule)
}

// listFields are the fields of a List document, as kubectl get prints one.
var listFields = map[string]bool{"apiVersion": true, "kind": true, "metadata": true, "items": true}

// checkList refuses a document with items (read as a List, as the API
// machinery reads one) that is not a List: a kind not ending in "List",
// or a field a List does not have, which says an object ran into it.
func checkList(field string, m map[string]any) error {
	const list = "a document with items is a List (its kind ends in List, its fields are apiVersion, kind, metadata and items): an object ran into it " + appended
	if kind, ok := m["kind"].(string); ok && !strings.HasSuffix(kind, "List") {
		return invalid.Errorf(field+".kind", kind, "is not a List's kind, and the document has items: %s", list)
	}
	var extra []string
	for k := range m {
		if !listFields[k] {
			extra = append(extra, k)
		}
	}
	if len(extra) == 0 {
		return nil
	}
	sort.Strings(extra)
	return invalid.Errorf(field+"."+extra[0], extra[0], "is not a field of a List: %s", list)
}
