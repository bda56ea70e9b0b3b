package plan

import (
	"encoding/json"
	"github.com/etcdshapes/etcdshapes"
	"sort"

	"github.com/etcdshapes/etcdshapes/naming"

	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// AppliedFieldsV1 is the field set (managedFields' fieldsV1) the API
// server records for FieldManager after it applies obj: obj's fields in
// the embedded schema, without the ones it never records (apiVersion,
// kind, metadata.name, ...). Tests build realistic live objects with it.
func AppliedFieldsV1(obj map[string]any) (map[string]any, error) {
	n, err := normalize(obj)
	if err != nil {
		return nil, err
	}
	tree := n.(map[string]any)
	apiVersion, _ := tree["apiVersion"].(string)
	kind, _ := tree["kind"].(string)
	pt, known, err := smdTypeOf(apiVersion, kind)
	if err != nil {
		return nil, err
	}
	if !known {
		pt = typed.DeducedParseableType
	}
	tv, err := pt.FromUnstructured(tree)
	if err != nil {
		return nil, err
	}
	set, err := tv.ToFieldSet()
	if err != nil {
		return nil, err
	}
	set = set.Difference(strippedFields)
	js, err := set.ToJSON()
	if err != nil {
		return nil, err
	}
	var out map[string]any
	return out, json.Unmarshal(js, &out)
}

// strippedFields are the fields the API server never records as owned
// (its stripMetaManager).
var strippedFields = fieldpath.NewSet(
	fieldpath.MakePathOrDie("apiVersion"),
	fieldpath.MakePathOrDie("kind"),
	fieldpath.MakePathOrDie("metadata"),
	fieldpath.MakePathOrDie("metadata", "name"),
	fieldpath.MakePathOrDie("metadata", "namespace"),
	fieldpath.MakePathOrDie("metadata", "creationTimestamp"),
	fieldpath.MakePathOrDie("metadata", "selfLink"),
	fieldpath.MakePathOrDie("metadata", "uid"),
	fieldpath.MakePathOrDie("metadata", "clusterName"),
	fieldpath.MakePathOrDie("metadata", "generation"),
	fieldpath.MakePathOrDie("metadata", "managedFields"),
	fieldpath.MakePathOrDie("metadata", "resourceVersion"),
)

// ScopeKeys are the keys of scopeOf(objs) and of stackScope(n), printed
// and sorted.
func ScopeKeys(objs []etcdshapes.Object, n naming.Names) (fromRender, ofStack []string, err error) {
	scope, err := stackScope(n)
	if err != nil {
		return nil, nil, err
	}
	return keyStrings(scopeOf(objs)), keyStrings(scope), nil
}

// StackScopeKeys are the keys of stackScope(n), printed and sorted.
func StackScopeKeys(n naming.Names) ([]string, error) {
	scope, err := stackScope(n)
	if err != nil {
		return nil, err
	}
	return keyStrings(scope), nil
}

func keyStrings(m map[objectKey]bool) []string {
	out := make([]string, 0, len(m))
	for k := range m {
		out = append(out, k.group+"/"+k.kind+" "+k.namespace+"/"+k.name)
	}
	sort.Strings(out)
	return out
}

// UnownedRemovalFields are unownedRemovalFields as "Kind field".
func UnownedRemovalFields() []string {
	out := make([]string, len(unownedRemovalFields))
	for i, f := range unownedRemovalFields {
		out[i] = f.kind.Kind + " " + f.field
	}
	return out
}
