package plan

import (
	"encoding/json"
	"fmt"
	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/quantity"
	"github.com/etcdshapes/etcdshapes/invalid"
	"iter"
	"maps"
	"math"
	"reflect"
	"slices"
	"sort"
	"strconv"
	"strings"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The plan reads live objects a person or a program hands it, so every
// field it reads is checked before it is used: a malformed one is a
// *invalid.Error that names the field by its position in the input
// ("live[3].metadata.managedFields[0].fieldsV1") and quotes the value as
// given, cut to maxShown bytes. Fields the plan only compares are not
// checked: a value of another type is a change like any other.

// shown is v as an error carries it: as given. invalid.Error prints it as
// YAML's flow style would, cut to about 120 bytes with "…", so a huge
// value costs no more to report than a short one.
func shown(v any) any { return v }

// treeError is a malformed value inside an object's JSON tree, found
// from the bottom up: path holds the keys and indices innermost first.
type treeError struct {
	path  []string
	value any
	rule  string
}

func (e *treeError) Error() string { return e.at("").Error() }

// at is the error as a *invalid.Error, the path appended to field.
func (e *treeError) at(field string) *invalid.Error {
	var b strings.Builder
	b.WriteString(field)
	for i := len(e.path) - 1; i >= 0; i-- {
		p := e.path[i]
		if !strings.HasPrefix(p, "[") && b.Len() > 0 {
			b.WriteByte('.')
		}
		b.WriteString(p)
	}
	return invalid.Errorf(b.String(), shown(e.value), "%s", e.rule)
}

// within adds the key or index of the parent to a treeError.
func within(err error, step string) error {
	if te, ok := err.(*treeError); ok {
		te.path = append(te.path, step)
	}
	return err
}

// normalize copies a JSON tree into the form the diff compares: integral
// numbers as int64 whatever their spelling (600 and 600.0 are one value; a
// decoder gives either), other numbers as float64. A value that is not
// JSON (a Go caller's []string, a struct) is a *treeError.
func normalize(v any) (any, error) {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, c := range t {
			n, err := normalize(c)
			if err != nil {
				return nil, within(err, k)
			}
			out[k] = n
		}
		return out, nil
	case []any:
		out := make([]any, len(t))
		for i, c := range t {
			n, err := normalize(c)
			if err != nil {
				return nil, within(err, "["+strconv.Itoa(i)+"]")
			}
			out[i] = n
		}
		return out, nil
	case nil, bool, string:
		return t, nil
	}
	return number(v)
}

// isNormalObject is isNormal of an object, metadata.managedFields aside:
// their field sets hold only objects (checkFieldSet) and the plan reads no
// other value of them as a number.
func isNormalObject(m map[string]any) bool {
	for k, c := range m {
		if k != "metadata" {
			if !isNormal(c) {
				return false
			}
			continue
		}
		meta, ok := c.(map[string]any)
		if !ok {
			return isNormal(c)
		}
		for mk, mc := range meta {
			if mk != "managedFields" && !isNormal(mc) {
				return false
			}
		}
	}
	return true
}

// isNormal reports whether v is already in normalize's form, so that it
// can be used as it is.
func isNormal(v any) bool {
	switch t := v.(type) {
	case map[string]any:
		return allNormal(maps.Values(t))
	case []any:
		return allNormal(slices.Values(t))
	case nil, bool, string, int64:
		return true
	case float64:
		return !math.IsNaN(t) && !math.IsInf(t, 0) && (t != math.Trunc(t) || math.Abs(t) >= 1<<53)
	}
	return false
}

// allNormal reports whether every value of vs is normal.
func allNormal(vs iter.Seq[any]) bool {
	for v := range vs {
		if !isNormal(v) {
			return false
		}
	}
	return true
}

// number converts any Go number a decoder or a caller may put in an
// unstructured object.
func number(v any) (any, error) {
	var f float64
	switch t := v.(type) {
	case int, int8, int16, int32, int64:
		return reflect.ValueOf(t).Int(), nil
	case uint, uint8, uint16, uint32, uint64:
		u := reflect.ValueOf(t).Uint()
		if u <= math.MaxInt64 {
			return int64(u), nil
		}
		f = float64(u)
	case float32:
		f = float64(t)
	case float64:
		f = t
	case json.Number:
		if i, err := t.Int64(); err == nil {
			return i, nil
		}
		var err error
		if f, err = t.Float64(); err != nil {
			return nil, &treeError{value: string(t), rule: "must be a number"}
		}
	default:
		return nil, &treeError{value: v, rule: fmt.Sprintf("must be a JSON value (string, number, bool, null, map[string]any or []any) as in an unstructured object, not %T", v)}
	}
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return nil, &treeError{value: f, rule: "must be a finite number"}
	}
	if f == math.Trunc(f) && math.Abs(f) < 1<<53 {
		return int64(f), nil
	}
	return f, nil
}

// inspected is what the plan reads from an object's metadata: its
// identity and its managedFields.
type inspected struct {
	key     objectKey
	ref     ObjectRef
	managed *liveManaged
}

// inspect checks the fields of an object's JSON tree that the plan reads
// (apiVersion, kind, metadata.name and namespace, labels, annotations,
// managedFields, and the fields the rules of its kind read) and returns
// what it read. field names the object in the input, e.g. "live[3]".
func inspect(field string, tree map[string]any) (*inspected, error) {
	key, ref, err := identity(field, tree)
	if err != nil {
		return nil, err
	}
	managed, err := inspectBody(field, key, tree)
	if err != nil {
		return nil, err
	}
	return &inspected{key: key, ref: ref, managed: managed}, nil
}

// inspectBody is inspect of an object whose identity is read (key): its
// labels, annotations, managedFields and the fields of its kind's rules.
func inspectBody(field string, key objectKey, tree map[string]any) (*liveManaged, error) {
	meta, _ := tree["metadata"].(map[string]any)
	if err := stringMap(field, ".metadata.labels", meta["labels"]); err != nil {
		return nil, err
	}
	if err := stringMap(field, ".metadata.annotations", meta["annotations"]); err != nil {
		return nil, err
	}
	managed, err := managedOf(field, meta["managedFields"])
	if err != nil {
		return nil, err
	}
	if err := checkRuleFields(field, key.groupKind(), tree); err != nil {
		return nil, err
	}
	return managed, nil
}

// identity checks and reads what names an object: apiVersion, kind,
// metadata.name and metadata.namespace.
func identity(field string, tree map[string]any) (objectKey, ObjectRef, error) {
	apiVersion, err := requiredString(field, ".apiVersion", tree["apiVersion"], `must be the object's group/version, e.g. "batch/v1" or "v1"`)
	if err != nil {
		return objectKey{}, ObjectRef{}, err
	}
	group, version, hasGroup := strings.Cut(apiVersion, "/")
	if !hasGroup {
		group, version = "", apiVersion
	}
	if version == "" || strings.Contains(version, "/") {
		return objectKey{}, ObjectRef{}, invalid.Errorf(field+".apiVersion", apiVersion, `must be group/version, e.g. "batch/v1" or "v1"`)
	}
	kind, err := requiredString(field, ".kind", tree["kind"], `must be the object's kind, e.g. "EtcdCluster"`)
	if err != nil {
		return objectKey{}, ObjectRef{}, err
	}
	meta, err := object(field, ".metadata", tree["metadata"])
	if err != nil {
		return objectKey{}, ObjectRef{}, err
	}
	name, err := requiredString(field, ".metadata.name", meta["name"], "must be the object's name")
	if err != nil {
		return objectKey{}, ObjectRef{}, err
	}
	ns, err := optionalString(field, ".metadata.namespace", meta["namespace"])
	if err != nil {
		return objectKey{}, ObjectRef{}, err
	}
	if err := checkSpelling(field, apiVersion, group, version, kind, name, ns); err != nil {
		return objectKey{}, ObjectRef{}, err
	}
	if err := checkNamespace(field, schema.GroupKind{Group: group, Kind: kind}, name, ns); err != nil {
		return objectKey{}, ObjectRef{}, err
	}
	return objectKey{group: group, kind: kind, namespace: ns, name: name},
		ObjectRef{APIVersion: apiVersion, Kind: kind, Namespace: ns, Name: name}, nil
}

// kindScopes says, for every kind the stacks emit (etcdshapes.Shapes)
// and the KamajiControlPlane the plan reads, whether its objects are
// namespaced (true) or cluster-scoped (false).
var kindScopes = func() map[schema.GroupKind]bool {
	m := map[schema.GroupKind]bool{kamajiControlPlaneKind: true}
	for _, s := range etcdshapes.Shapes() {
		m[s.Kind.GroupKind()] = !s.ClusterScoped
	}
	return m
}()

// checkNamespace is the rule of an object's namespace (live or desired):
// an object of a kind the plan knows has a namespace exactly when the
// kind is namespaced. An object without one (a hand-written or trimmed
// live file; kubectl get prints it) is refused, never matched by guess:
// read as it is it would match nothing, so the plan would create its
// desired twin and never delete it. Objects of other kinds are taken as
// they are.
func checkNamespace(field string, gk schema.GroupKind, name, ns string) error {
	namespaced, known := kindScopes[gk]
	switch {
	case !known:
		return nil
	case namespaced && ns == "":
		return invalid.Errorf(field+".metadata.namespace", ns,
			"must be set: %s %s is namespaced, and the plan does not guess its namespace (kubectl get -o yaml prints it; add it to a hand-written or trimmed file)", gk.Kind, invalid.FormatValue(name))
	case !namespaced && ns != "":
		return invalid.Errorf(field+".metadata.namespace", ns,
			"must not be set: %s %s is cluster-scoped (kubectl get -o yaml prints no namespace for it)", gk.Kind, invalid.FormatValue(name))
	}
	return nil
}

// The checks below name the field as field+suffix, concatenated only for
// an error.

func requiredString(field, suffix string, v any, rule string) (string, error) {
	s, ok := v.(string)
	if !ok || s == "" {
		if v == nil {
			v = ""
		}
		return "", invalid.Errorf(field+suffix, shown(v), "%s", rule)
	}
	return s, nil
}

func optionalString(field, suffix string, v any) (string, error) {
	if v == nil {
		return "", nil
	}
	s, ok := v.(string)
	if !ok {
		return "", invalid.Errorf(field+suffix, shown(v), "must be a string")
	}
	return s, nil
}

// object is v as a map; absent (nil) is an empty (nil) map.
func object(field, suffix string, v any) (map[string]any, error) {
	if v == nil {
		return nil, nil
	}
	m, ok := v.(map[string]any)
	if !ok {
		return nil, invalid.Errorf(field+suffix, shown(v), "must be an object (a map)")
	}
	return m, nil
}

// stringMap checks a map of strings (labels, annotations); absent or
// null is fine. Of several bad values it names the first key in order.
func stringMap(field, suffix string, v any) error {
	m, err := object(field, suffix, v)
	if err != nil {
		return err
	}
	for _, c := range m {
		if _, ok := c.(string); !ok {
			for _, k := range slices.Sorted(maps.Keys(m)) {
				if _, ok := m[k].(string); !ok {
					return invalid.Errorf(field+suffix+"."+k, shown(m[k]), "must be a string")
				}
			}
		}
	}
	return nil
}

var entryKeys = [4]string{"manager", "operation", "apiVersion", "subresource"}

// managedOf reads managedFields: each manager's field sets, keyed as the
// API server keys managers (managerID; entries of one manager are
// merged). Each entry must be an object whose fieldsV1, when present, is
// a field set. object names the object ("live[3]"); errors name
// object+".metadata.managedFields".
func managedOf(object string, v any) (*liveManaged, error) {
	m := &liveManaged{}
	if v == nil {
		return m, nil
	}
	const suffix = ".metadata.managedFields"
	entries, ok := v.([]any)
	if !ok {
		return nil, invalid.Errorf(object+suffix, shown(v), "must be a list of managed field entries")
	}
	for i, e := range entries {
		at := func() string { return object + suffix + "[" + strconv.Itoa(i) + "]" }
		em, ok := e.(map[string]any)
		if !ok {
			return nil, invalid.Errorf(at(), shown(e), "must be a managed field entry (an object with manager, operation and fieldsV1)")
		}
		var parts [4]string
		for j, k := range entryKeys {
			s, err := optionalString(object, suffix, em[k])
			if err != nil {
				return nil, invalid.Errorf(at()+"."+k, shown(em[k]), "must be a string")
			}
			parts[j] = s
		}
		// The API server writes only these (apimachinery's
		// ValidateManagedFields): an entry of another operation or
		// fields type is no record of it, and would stand for ownership
		// the plan cannot read. A fieldsType left out (a hand-made
		// fixture) is FieldsV1, the one a fieldsV1 set is.
		if parts[1] != string(metav1.ManagedFieldsOperationApply) && parts[1] != string(metav1.ManagedFieldsOperationUpdate) {
			return nil, invalid.Errorf(at()+".operation", shown(em["operation"]), "must be Apply or Update, as the API server writes it")
		}
		if ft, err := optionalString(object, suffix, em["fieldsType"]); err != nil || (em["fieldsType"] != nil && ft != "FieldsV1") {
			return nil, invalid.Errorf(at()+".fieldsType", shown(em["fieldsType"]), "must be FieldsV1, the only fields type the API server writes")
		}
		m.present = true
		if em["fieldsV1"] == nil {
			continue
		}
		fields, ok := em["fieldsV1"].(map[string]any)
		if !ok {
			return nil, invalid.Errorf(at()+".fieldsV1", shown(em["fieldsV1"]), "must be a field set (FieldsV1), an object such as {\"f:spec\":{\"f:replicas\":{}}}")
		}
		if err := checkFieldSet(fields); err != nil {
			return nil, invalid.Errorf(at()+".fieldsV1", shown(fields), "must be a field set (FieldsV1): %v", err)
		}
		mgr := Manager{Name: parts[0], Operation: parts[1], APIVersion: parts[2], Subresource: parts[3]}
		if mgr.Operation == "Apply" {
			mgr.APIVersion = ""
		}
		m.add(mgr, parts[2], fields)
	}
	if len(m.entries) > 1 {
		sort.Slice(m.entries, func(i, j int) bool { return lessManager(m.entries[i].mgr, m.entries[j].mgr) })
	}
	return m, nil
}

// unionAll is the union of sets, merged pairwise so that many entries
// cost n log n, not n².
func unionAll(sets []*fieldpath.Set) *fieldpath.Set {
	switch len(sets) {
	case 0:
		return &fieldpath.Set{}
	case 1:
		return sets[0]
	}
	for len(sets) > 1 {
		next := make([]*fieldpath.Set, 0, (len(sets)+1)/2)
		for i := 0; i+1 < len(sets); i += 2 {
			next = append(next, sets[i].Union(sets[i+1]))
		}
		if len(sets)%2 == 1 {
			next = append(next, sets[len(sets)-1])
		}
		sets = next
	}
	return sets[0]
}

// ruleField is a field a plan rule reads, and what it must be.
type ruleField struct {
	kind  schema.GroupKind
	path  string
	check func(v any) string // the rule broken, "" when v is fine
}

var ruleFields = []ruleField{
	{etcdClusterKind, "spec.replicas", isMemberCount},
	{etcdClusterKind, "spec.storage.size", isQuantity},
	{etcdClusterKind, "spec.storage.storageClassName", isString},
	{etcdClusterKind, "spec.storage.medium", isString},
	{etcdClusterKind, "spec.version", isString},
	{dataStoreKind, "spec.driver", isString},
	{dataStoreKind, "status.usedBy", isStringList},
	{kamajiControlPlaneKind, "spec.dataStoreName", isString},
	// What says that an object refers to the stack (refersTo).
	{tenantControlPlaneKind, "spec.dataStore", isString},
	{etcdSnapshotKind, "spec.clusterRef.name", isString},
}

// ruleParts are the rule fields' paths split at the dots.
var ruleParts = func() map[string][]string {
	out := map[string][]string{}
	for _, r := range ruleFields {
		out[r.path] = strings.Split(r.path, ".")
	}
	return out
}()

func (r ruleField) parts() []string { return ruleParts[r.path] }

// checkRuleFields checks the fields the rules of the object's kind read;
// their parents must be objects. Null is absent.
func checkRuleFields(field string, gk schema.GroupKind, tree map[string]any) error {
	for _, r := range ruleFields {
		if r.kind != gk {
			continue
		}
		parts := r.parts()
		var cur any = tree
		for i, p := range parts {
			m, ok := cur.(map[string]any)
			if !ok {
				return invalid.Errorf(field+"."+strings.Join(parts[:i], "."), shown(cur), "must be an object (a map)")
			}
			cur = m[p]
			if cur == nil {
				break
			}
			if i == len(parts)-1 {
				if rule := r.check(cur); rule != "" {
					return invalid.Errorf(field+"."+r.path, shown(cur), "%s", rule)
				}
			}
		}
	}
	return nil
}

func isString(v any) string {
	if _, ok := v.(string); !ok {
		return "must be a string"
	}
	return ""
}

func isMemberCount(v any) string {
	if n, err := number(v); err == nil {
		v = n // a live object given as is may hold 3 as 3.0
	}
	if n, ok := v.(int64); !ok || n < 0 || n > math.MaxInt32 {
		return "must be a whole number of members, 0 or more"
	}
	return ""
}

// isQuantity: a quantity within the quantity bounds; beyond them (a size
// of 8Ei, which apimachinery reads as 2^63-1, or of 1e999999999, whose
// comparison would never end) the object is refused with the bound.
func isQuantity(v any) string {
	switch _, rule := quantityOf(v); rule {
	case "":
		return ""
	case quantity.SyntaxRule:
		return "must be a quantity, e.g. 4Gi"
	default:
		return rule
	}
}

func isStringList(v any) string {
	l, ok := v.([]any)
	if !ok {
		return "must be a list of strings"
	}
	for _, e := range l {
		if _, ok := e.(string); !ok {
			return "must be a list of strings"
		}
	}
	return ""
}
