package plan

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
	"sigs.k8s.io/structured-merge-diff/v6/merge"
	"sigs.k8s.io/structured-merge-diff/v6/schema"
	"sigs.k8s.io/structured-merge-diff/v6/typed"
)

// The plan predicts what a server-side apply as FieldManager does to each
// live object, the way the API server computes it: the desired object
// (the apply configuration) is merged into the live object with the
// embedded schema (keyed lists by key, sets by value, atomic lists and
// maps whole), the fields FieldManager applied before and no longer sends
// are removed unless another manager owns them, a field another manager
// owns whose value changes is a conflict, and the result is defaulted.
//
// An object the apply leaves as it is takes a fast path that walks the
// two trees and FieldManager's managed fields once, without building
// structured-merge-diff's typed values; anything else is merged by
// structured-merge-diff's own Updater.Apply (sigs.k8s.io/
// structured-merge-diff/v6/merge), with the live object's managedFields.
// The fast path answers "nothing changes" only where the merge provably
// gives the live object back (TestFastPathAgreesWithTheMerge).

// Manager is a field manager as a live object's managedFields name it.
type Manager struct {
	// Name is the manager ("kubectl-edit", "helm", "etcdshapes").
	Name string `json:"name"`
	// Operation is Apply or Update.
	Operation string `json:"operation"`
	// APIVersion is the version an Update manager wrote at (appliers are
	// one manager whatever the version).
	APIVersion string `json:"apiVersion,omitempty"`
	// Subresource is the subresource it wrote through ("status"), if any.
	Subresource string `json:"subresource,omitempty"`
}

// String is the manager's name, with its subresource when it has one.
func (m Manager) String() string {
	if m.Subresource != "" {
		return m.Name + " (" + m.Subresource + ")"
	}
	return m.Name
}

// Ownership says what the plan knew about who owns the live object's
// fields.
type Ownership string

const (
	// OwnershipManagedFields: the live object carried managedFields; the
	// plan predicts the apply with them (removals, fields kept for other
	// managers, conflicts).
	OwnershipManagedFields Ownership = "managedFields"
	// OwnershipUnknown: the live object carried no managedFields (kubectl
	// get without --show-managed-fields). The plan merges the desired
	// object into the live one (a plain diff of what the apply sets);
	// what it removes, keeps for other managers or conflicts on is not
	// known.
	OwnershipUnknown Ownership = "unknown"
)

// KeptField is a field of the live object the apply leaves as it is
// because other managers own it and the desired object does not set it:
// a sidecar container another tool added, its labels.
type KeptField struct {
	// Path is the field, e.g.
	// `spec.jobTemplate.spec.template.spec.containers[name="sidecar"]`.
	Path string `json:"path"`
	// PathElements is the path in managedFields' notation (see
	// FieldChange).
	PathElements []string `json:"pathElements"`
	// Managers own the field (or fields below it).
	Managers []Manager `json:"managers"`
	// Value is the live value.
	Value any `json:"value,omitempty"`
}

// Conflict is a field another manager owns whose value the apply changes.
// Without force the API server refuses the whole apply (409 Conflict,
// naming each field and manager); with force, as apply.Requests' callers
// apply, FieldManager takes the field and the other managers stop owning
// it.
type Conflict struct {
	// Path is the field, as the API server names it in the conflict
	// (without the leading dot).
	Path string `json:"path"`
	// PathElements is the path in managedFields' notation (see
	// FieldChange).
	PathElements []string `json:"pathElements"`
	// Managers own the field now.
	Managers []Manager `json:"managers"`
	// Live is the value before a forced apply.
	Live any `json:"live,omitempty"`
	// Desired is the value after a forced apply.
	Desired any `json:"desired,omitempty"`
	// ForceTakes reports whether an apply with force takes the field: it
	// does unless the API server refuses the apply of the object anyway
	// (a refused finding on it).
	ForceTakes bool `json:"forceTakes"`
}

// managerID is a manager's key among an object's managers, distinct
// where the API server's are (BuildManagerIdentifier: the entry without
// its fields and time, and without the version for an applier).
func managerID(m Manager) string {
	v := m.APIVersion
	if m.Operation == string(metav1.ManagedFieldsOperationApply) {
		v = ""
	}
	return m.Name + "\x00" + m.Operation + "\x00" + v + "\x00" + m.Subresource
}

// applierID is the key of field manager name as an applier.
func applierID(name string) string {
	return managerID(Manager{Name: name, Operation: string(metav1.ManagedFieldsOperationApply)})
}

// liveManaged is what a live object's managedFields say: each manager's
// field sets (fieldsV1, as the API server wrote them; entries of one
// manager together), managers in the order of their keys (managerID).
type liveManaged struct {
	present bool // the object carried managedFields entries
	entries []managerEntry
	index   map[Manager]int         // entries by manager, once there are many
	sets    fieldpath.ManagedFields // built on first use (the merge)
}

type managerEntry struct {
	mgr     Manager
	version string // the apiVersion of its first entry
	fields  []map[string]any
}

// isApplier reports whether m is the applies of field manager name.
func (m Manager) isApplier(name string) bool {
	return m.Name == name && m.Operation == string(metav1.ManagedFieldsOperationApply) && m.Subresource == ""
}

// own is the field set field manager name applied last, nil when none.
func (m *liveManaged) own(name string) []map[string]any {
	if m == nil {
		return nil
	}
	for _, e := range m.entries {
		if e.mgr.isApplier(name) {
			return e.fields
		}
	}
	return nil
}

// add records an entry's fields under its manager.
func (m *liveManaged) add(mgr Manager, version string, fields map[string]any) {
	if m.index == nil && len(m.entries) >= 8 {
		m.index = make(map[Manager]int, 2*len(m.entries))
		for i, e := range m.entries {
			m.index[e.mgr] = i
		}
	}
	i, found := -1, false
	if m.index != nil {
		i, found = m.index[mgr]
	} else {
		for j := range m.entries {
			if m.entries[j].mgr == mgr {
				i, found = j, true
				break
			}
		}
	}
	if found {
		m.entries[i].fields = append(m.entries[i].fields, fields)
		return
	}
	m.entries = append(m.entries, managerEntry{mgr: mgr, version: version, fields: []map[string]any{fields}})
	if m.index != nil {
		m.index[mgr] = len(m.entries) - 1
	}
}

// managedFields are the managers' field sets in structured-merge-diff's
// form, for its Updater.
func (m *liveManaged) managedFields() (fieldpath.ManagedFields, error) {
	out := fieldpath.ManagedFields{}
	if m == nil {
		return out, nil
	}
	if m.sets == nil {
		m.sets = fieldpath.ManagedFields{}
		for _, e := range m.entries {
			var sets []*fieldpath.Set
			for _, raw := range e.fields {
				s, err := fieldSetOf(raw)
				if err != nil {
					return nil, err
				}
				sets = append(sets, s)
			}
			m.sets[managerID(e.mgr)] = fieldpath.NewVersionedSet(unionAll(sets), fieldpath.APIVersion(e.version), e.mgr.Operation == string(metav1.ManagedFieldsOperationApply))
		}
	}
	for id, vs := range m.sets {
		out[id] = vs
	}
	return out, nil
}

// prediction is what an apply of one desired object onto its live object
// does.
type prediction struct {
	changes   []FieldChange
	kept      []KeptField
	conflicts []Conflict
	ownership Ownership
	// unknown are live fields the embedded schema does not know (a newer
	// CRD); the apply leaves them as they are.
	unknown []string
	// after is the object as the API server stores it after the apply.
	after map[string]any
	// refusal is why the API server refuses the apply itself (a desired
	// object the schema refuses), if it does.
	refusal string
}

// predictApply predicts a server-side apply of d onto l as field manager
// manager, with force.
func predictApply(l, d *planObject, manager string) (*prediction, error) {
	pt, known, err := smdTypeOf(d.ref.APIVersion, d.ref.Kind)
	if err != nil {
		return nil, err
	}
	if !known {
		pt = typed.DeducedParseableType
	}
	p := &prediction{ownership: OwnershipUnknown}
	if l.managed != nil && l.managed.present {
		p.ownership = OwnershipManagedFields
	}
	// The fast path first reads the live tree as given: if the apply
	// changes nothing there, it changes nothing in the tree with the
	// server's defaults either (they only add fields); numbers compare by
	// value and anything else it cannot vouch for goes the long way.
	root := compiledType(pt)
	own := l.managed.own(manager)
	if fastUnchanged(root, l.tree, d.tree, own) {
		p.after = l.tree
	} else {
		if err := l.normalizeTree(); err != nil {
			return nil, err
		}
		live := l.tree
		if live["apiVersion"] != d.tree["apiVersion"] {
			// The API server converts the live object to the version
			// applied; the kinds the stacks emit have one served version,
			// so a live object read at another one is taken as it is.
			live = shallowCopy(live)
			live["apiVersion"] = d.tree["apiVersion"]
		}
		if fastUnchanged(root, live, d.tree, own) {
			p.after = live
		} else if err := predictMerge(pt, known, l, d, live, manager, p); err != nil {
			return nil, err
		}
	}
	p.kept = keptFields(root, l.managed, manager, d.tree, p.after)
	return p, nil
}

// fastUnchanged reports whether the apply provably changes nothing: every
// value config sets is live's, in the same order, and every field the
// manager applied before is one config sets again (so none is removed).
func fastUnchanged(root *cNode, live, config map[string]any, own []map[string]any) bool {
	if !applyChangesNothing(root, live, config) {
		return false
	}
	for _, f := range own {
		if !setWithin(root, f, config) {
			return false
		}
	}
	return true
}

func shallowCopy(m map[string]any) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		out[k] = v
	}
	return out
}

// predictMerge runs structured-merge-diff's Updater.Apply as the API
// server does (structuredMergeManager.Apply), then what the server does
// after the merge: defaulting, and for built-in kinds the typed round
// trip (canonical quantities, empty maps and lists dropped).
func predictMerge(pt typed.ParseableType, known bool, l, d *planObject, live map[string]any, manager string, p *prediction) error {
	s := pt.Schema
	conformed, unknown := conform(s, pt.TypeRef, live)
	// The live object as the API server stores it: no null a field does
	// not allow, and for a built-in kind its Go round trip (a hand-written
	// live file may hold what the server would never return).
	if firstNull(s, pt.TypeRef, conformed, nil) != nil || known && isBuiltinType(pt.TypeRef) {
		conformed = copyJSON(conformed).(map[string]any)
		dropNulls(s, pt.TypeRef, conformed)
		if known && isBuiltinType(pt.TypeRef) {
			roundTrip(s, pt.TypeRef, conformed)
		}
	}
	// Map fields the apply does not touch (not in the desired object, not
	// FieldManager's) are unchanged by the merge, the prune and the
	// comparison: they are set aside and put back after, so that a live
	// object with 20,000 labels costs no more to merge than the render.
	// Long keyed lists and sets the desired object does not set go to
	// structured-merge-diff sorted by their elements' identities: its
	// sets and maps of path elements are sorted slices, so elements
	// inserted in order are appended, where any other order costs a move
	// of the slice per element (quadratic). The merge keeps such a list's
	// elements (less the pruned ones) and the comparisons ignore order;
	// the live order is put back after (restoreOrder).
	conformed, sorted := sortUnsetLists(compiledType(pt), conformed, d.tree)
	fullTV, err := pt.FromUnstructured(conformed, typed.AllowDuplicates)
	var aside []unknownField
	liveTV := fullTV
	if err != nil {
		// A live object the schema refuses (a field of another type than
		// the CRD's): merge with the deduced schema, lists atomic.
		pt, unknown, sorted = typed.DeducedParseableType, nil, nil
		conformed = live
		if fullTV, err = pt.FromUnstructured(live, typed.AllowDuplicates); err != nil {
			return fmt.Errorf("the live object: %w", err)
		}
		liveTV = fullTV
	} else {
		var trimmed map[string]any
		trimmed, aside = trimUntouched(compiledType(pt), conformed, d.tree, l.managed.own(manager))
		if len(aside) > 0 {
			if liveTV, err = pt.FromUnstructured(trimmed, typed.AllowDuplicates); err != nil {
				return fmt.Errorf("the live object: %w", err)
			}
		}
	}
	configTV, err := pt.FromUnstructured(d.tree)
	if err != nil {
		p.refusal = "the API server refuses the apply: " + err.Error()
		pt = typed.DeducedParseableType
		conformed, unknown, aside, sorted = live, nil, nil, nil
		if liveTV, err = pt.FromUnstructured(live, typed.AllowDuplicates); err != nil {
			return fmt.Errorf("the live object: %w", err)
		}
		fullTV = liveTV
		if configTV, err = pt.FromUnstructured(d.tree); err != nil {
			return fmt.Errorf("the desired object: %w", err)
		}
	}
	for _, u := range unknown {
		if appliedField(u.path) {
			p.unknown = append(p.unknown, pathString(u.path))
		}
	}
	sort.Strings(p.unknown)
	managers, err := l.managed.managedFields()
	if err != nil {
		return err
	}
	applyID := applierID(manager)
	version := fieldpath.APIVersion(d.ref.APIVersion)
	conv := &versionConverter{kind: d.ref.Kind, version: d.ref.APIVersion, deduced: pt.TypeRef.NamedType != nil && *pt.TypeRef.NamedType == "__untyped_deduced_"}
	updater := (&merge.UpdaterBuilder{Converter: conv, ReturnInputOnNoop: true}).BuildUpdater()
	merged, _, err := updater.Apply(liveTV, configTV, version, managers.Copy(), applyID, true)
	if err != nil {
		p.refusal = "the API server refuses the apply: " + err.Error()
		p.after = live
		return nil
	}
	// A conflict is a field another manager owns whose value the apply
	// changes; only then does an apply without force fail, and only then
	// is it run to name them as the server does.
	// The comparison is made only when another manager owns fields.
	var touched *fieldpath.Set
	var conflictPaths []fieldpath.Path
	for id, vs := range managers {
		if id == applyID || vs.Set().Empty() {
			continue
		}
		if touched == nil {
			cmp, err := liveTV.Compare(merged)
			if err != nil {
				return err
			}
			touched = cmp.Modified.Union(cmp.Added)
		}
		if vs.Set().Intersection(touched).Empty() {
			continue
		}
		_, _, err := updater.Apply(liveTV, configTV, version, managers.Copy(), applyID, false)
		var conflicts merge.Conflicts
		if errors.As(err, &conflicts) {
			p.conflicts, conflictPaths = conflictsOf(conflicts, l.managed)
		}
		break
	}

	after, _ := copyJSON(merged.AsValue().Unstructured()).(map[string]any)
	if after == nil {
		return errors.New("the merge gave no object")
	}
	for _, u := range aside {
		graft(after, u)
	}
	if why := serverSide(s, pt.TypeRef, known, d, conformed, after); why != "" {
		p.refusal = "the API server refuses the apply: " + why
	}
	afterTV, err := pt.FromUnstructured(after, typed.AllowDuplicates)
	if err != nil {
		return fmt.Errorf("the object after the apply: %w", err)
	}
	final, err := fullTV.Compare(afterTV)
	if err != nil {
		return err
	}
	var own *fieldpath.Set
	if vs, ok := managers[applyID]; ok {
		own = vs.Set()
	}
	root := compiledType(pt)
	p.changes = changesOf(root, conformed, after, final, own)
	lk, ak := newLookup(root, conformed), newLookup(root, after)
	for i, path := range conflictPaths {
		p.conflicts[i].Live, _ = lk.get(path)
		p.conflicts[i].Desired, _ = ak.get(path)
	}
	for _, u := range unknown {
		graft(after, u)
	}
	for _, sl := range sorted {
		sl.restoreOrder(after)
	}
	p.after = after
	return nil
}

// longList is the length from which sortUnsetLists sorts a list.
const longList = 64

// sortedList is a list sortUnsetLists sorted: where it is (map keys from
// the root), its type and its elements in the live order.
type sortedList struct {
	path []string
	l    *cList
	live []any
}

// sortUnsetLists returns live with its long keyed lists and sets that
// config does not set sorted by identity (elementKey, setKey), copying
// the maps on their way, and the lists it sorted. It descends maps only;
// a list with an element without identity stays as it is.
func sortUnsetLists(n *cNode, live, config map[string]any) (map[string]any, []sortedList) {
	var out []sortedList
	m := sortMap(n, live, config, nil, &out)
	return m, out
}

func sortMap(n *cNode, live, config map[string]any, path []string, out *[]sortedList) map[string]any {
	if n == nil || n.m == nil || n.m.atomic {
		return live
	}
	var copied map[string]any
	set := func(k string, v any) {
		if copied == nil {
			copied = shallowCopy(live)
		}
		copied[k] = v
	}
	for k, lv := range live {
		f := n.m.field(k)
		if f == nil {
			continue
		}
		cv, inConfig := config[k]
		switch lv := lv.(type) {
		case map[string]any:
			cm, _ := cv.(map[string]any)
			if inConfig && cm == nil {
				continue
			}
			at := append(path[:len(path):len(path)], k)
			if m := sortMap(f, lv, cm, at, out); !sameMap(m, lv) {
				set(k, m)
			}
		case []any:
			if inConfig || f.l == nil || f.l.kind == atomicList || len(lv) < longList {
				continue
			}
			if s, ok := sortedElements(f.l, lv); ok {
				*out = append(*out, sortedList{path: append(path[:len(path):len(path)], k), l: f.l, live: lv})
				set(k, s)
			}
		}
	}
	if copied == nil {
		return live
	}
	return copied
}

// sameMap reports whether a and b are the same map (not a copy).
func sameMap(a, b map[string]any) bool {
	return len(a) == len(b) && (len(a) == 0 || reflect.ValueOf(a).UnsafePointer() == reflect.ValueOf(b).UnsafePointer())
}

// identityOf is a keyed list's or set's element identity.
func identityOf(l *cList, e any) (string, bool) {
	if l.kind == keyedList {
		return elementKey(l, e)
	}
	return setKey(e)
}

// sortedElements is a copy of list sorted by identity (stable); ok is
// false for a list with an element without one.
func sortedElements(l *cList, list []any) ([]any, bool) {
	type keyed struct {
		key string
		e   any
	}
	ks := make([]keyed, len(list))
	for i, e := range list {
		k, ok := identityOf(l, e)
		if !ok {
			return nil, false
		}
		ks[i] = keyed{k, e}
	}
	sort.SliceStable(ks, func(i, j int) bool { return ks[i].key < ks[j].key })
	out := make([]any, len(list))
	for i, k := range ks {
		out[i] = k.e
	}
	return out, true
}

// restoreOrder puts the elements of the list at sl.path in root (the
// object after the apply) back in their live order: the merge kept the
// sorted order of the elements it did not prune.
func (sl sortedList) restoreOrder(root map[string]any) {
	parent := root
	for _, k := range sl.path[:len(sl.path)-1] {
		m, ok := parent[k].(map[string]any)
		if !ok {
			return
		}
		parent = m
	}
	last := sl.path[len(sl.path)-1]
	after, ok := parent[last].([]any)
	if !ok {
		return
	}
	byKey := make(map[string][]int, len(after))
	for i, e := range after {
		k, ok := identityOf(sl.l, e)
		if !ok {
			return
		}
		byKey[k] = append(byKey[k], i)
	}
	out := make([]any, 0, len(after))
	for _, e := range sl.live {
		k, _ := identityOf(sl.l, e)
		if is := byKey[k]; len(is) > 0 {
			out = append(out, after[is[0]])
			byKey[k] = is[1:]
		}
	}
	if len(out) != len(after) {
		return // an element not from the live list: leave the merge's order
	}
	parent[last] = out
}

// trimUntouched returns live without the map fields neither the desired
// object nor FieldManager's field sets reach (a copy where it removes
// any), and those fields. It descends maps only: lists stay whole, since
// the merge orders their elements.
func trimUntouched(n *cNode, live, config map[string]any, own []map[string]any) (map[string]any, []unknownField) {
	var aside []unknownField
	out, _ := trimMap(n, live, config, own, nil, &aside)
	return out, aside
}

func trimMap(n *cNode, live, config map[string]any, own []map[string]any, path fieldpath.Path, aside *[]unknownField) (map[string]any, bool) {
	if n == nil || n.m == nil || n.m.atomic {
		return live, false
	}
	var copied map[string]any
	for k, lv := range live {
		if len(path) == 0 && (k == "apiVersion" || k == "kind") {
			continue
		}
		cv, inConfig := config[k]
		var ownChild []map[string]any
		owned := false
		for _, o := range own {
			if c, ok := o["f:"+k]; ok {
				owned = true
				if cm, ok := c.(map[string]any); ok && len(cm) > 0 {
					ownChild = append(ownChild, cm)
				}
			}
		}
		at := append(path[:len(path):len(path)], fieldpath.PathElement{FieldName: ptr(k)})
		if !inConfig && !owned {
			if copied == nil {
				copied = shallowCopy(live)
			}
			delete(copied, k)
			*aside = append(*aside, unknownField{path: at, value: lv})
			continue
		}
		lm, lok := lv.(map[string]any)
		cm, _ := cv.(map[string]any)
		if !lok || (inConfig && cm == nil) {
			continue
		}
		if trimmed, changed := trimMap(n.m.field(k), lm, cm, ownChild, at, aside); changed {
			if copied == nil {
				copied = shallowCopy(live)
			}
			copied[k] = trimmed
		}
	}
	if copied == nil {
		return live, false
	}
	return copied, true
}

// versionConverter converts between the versions of one kind: the kinds
// the stacks emit have one served version each, so a manager that wrote
// at another version is one the API server no longer serves, and it drops
// that manager's fields, as here.
type versionConverter struct {
	kind, version string
	deduced       bool
}

var errMissingVersion = errors.New("version not served")

func (c *versionConverter) Convert(v *typed.TypedValue, version fieldpath.APIVersion) (*typed.TypedValue, error) {
	if string(version) == c.version || c.deduced {
		return v, nil
	}
	return nil, errMissingVersion
}

func (c *versionConverter) IsMissingVersionError(err error) bool {
	return errors.Is(err, errMissingVersion)
}

// conflictsOf groups the server's conflicts by field, sorted by path;
// paths holds each one's path.
func conflictsOf(cs merge.Conflicts, m *liveManaged) ([]Conflict, []fieldpath.Path) {
	byPath := map[string]int{}
	var out []Conflict
	var paths []fieldpath.Path
	for _, c := range cs {
		key := c.Path.String()
		i, ok := byPath[key]
		if !ok {
			i = len(out)
			byPath[key] = i
			out = append(out, Conflict{Path: pathString(c.Path), PathElements: pathElements(c.Path), ForceTakes: true})
			paths = append(paths, c.Path)
		}
		out[i].Managers = append(out[i].Managers, m.manager(c.Manager))
	}
	idx := make([]int, len(out))
	for i := range idx {
		idx[i] = i
	}
	sort.Slice(idx, func(a, b int) bool { return out[idx[a]].Path < out[idx[b]].Path })
	sorted, sortedPaths := make([]Conflict, len(out)), make([]fieldpath.Path, len(out))
	for i, j := range idx {
		sorted[i], sortedPaths[i] = out[j], paths[j]
		sortManagers(sorted[i].Managers)
	}
	return sorted, sortedPaths
}

func (m *liveManaged) manager(id string) Manager {
	for _, e := range m.entries {
		if managerID(e.mgr) == id {
			return e.mgr
		}
	}
	parts := strings.SplitN(id, "\x00", 4)
	for len(parts) < 4 {
		parts = append(parts, "")
	}
	return Manager{Name: parts[0], Operation: parts[1], APIVersion: parts[2], Subresource: parts[3]}
}

func sortManagers(ms []Manager) {
	sort.Slice(ms, func(i, j int) bool { return lessManager(ms[i], ms[j]) })
}

// lessManager orders managers by name, operation, subresource, version.
func lessManager(a, b Manager) bool {
	if a.Name != b.Name {
		return a.Name < b.Name
	}
	if a.Operation != b.Operation {
		return a.Operation < b.Operation
	}
	if a.Subresource != b.Subresource {
		return a.Subresource < b.Subresource
	}
	return a.APIVersion < b.APIVersion
}

// unknownField is a live field the schema does not know, set aside for
// the merge and put back after it.
type unknownField struct {
	path  fieldpath.Path
	value any
}

// conform returns v without the fields the schema does not know (a copy
// where it removes any), and those fields.
func conform(s *schema.Schema, tr schema.TypeRef, v map[string]any) (map[string]any, []unknownField) {
	var out []unknownField
	c, _ := conformValue(s, tr, v, nil, &out)
	m, _ := c.(map[string]any)
	return m, out
}

// conformValue is conform of any value; changed reports a copy.
func conformValue(s *schema.Schema, tr schema.TypeRef, v any, path fieldpath.Path, out *[]unknownField) (any, bool) {
	t, mt, l, lt := typedParts(s, tr, v)
	switch {
	case mt != nil:
		if isAtomicMap(mt) {
			return v, false
		}
		var copied map[string]any
		for k, c := range t {
			at := append(path[:len(path):len(path)], fieldpath.PathElement{FieldName: ptr(k)})
			ft, ok := fieldType(mt, k)
			if !ok {
				if copied == nil {
					copied = shallowCopy(t)
				}
				delete(copied, k)
				*out = append(*out, unknownField{path: at, value: c})
				continue
			}
			if n, changed := conformValue(s, ft, c, at, out); changed {
				if copied == nil {
					copied = shallowCopy(t)
				}
				copied[k] = n
			}
		}
		if copied != nil {
			return copied, true
		}
	case lt != nil:
		if kindOfList(lt) != keyedList {
			return v, false
		}
		var copied []any
		for i, e := range l {
			pe, ok := pathElementOf(s, lt, e)
			if !ok {
				continue
			}
			if n, changed := conformValue(s, lt.ElementType, e, append(path[:len(path):len(path)], pe), out); changed {
				if copied == nil {
					copied = append([]any(nil), l...)
				}
				copied[i] = n
			}
		}
		if copied != nil {
			return copied, true
		}
	}
	return v, false
}

func ptr[T any](v T) *T { return &v }

// typedParts is v with the part of its type that fits it, as
// structured-merge-diff picks it (deduceAtom: an untyped field may hold a
// scalar, a list or a map): a map and the schema's map type, or a list and
// the schema's list type. The pair that does not apply is nil, and both
// are when tr does not resolve, v is a scalar or null, or the type has no
// map (list) for a map (list).
func typedParts(s *schema.Schema, tr schema.TypeRef, v any) (map[string]any, *schema.Map, []any, *schema.List) {
	a, ok := s.Resolve(tr)
	if !ok {
		return nil, nil, nil, nil
	}
	switch t := v.(type) {
	case map[string]any:
		if a.Map != nil {
			return t, a.Map, nil, nil
		}
	case []any:
		if a.List != nil {
			return nil, nil, t, a.List
		}
	}
	return nil, nil, nil, nil
}

// graft puts an unknown field back where its parent still is.
func graft(root map[string]any, u unknownField) {
	var cur any = root
	for i, pe := range u.path {
		last := i == len(u.path)-1
		switch {
		case pe.FieldName != nil:
			m, ok := cur.(map[string]any)
			if !ok {
				return
			}
			if last {
				m[*pe.FieldName] = u.value
				return
			}
			cur = m[*pe.FieldName]
		default:
			l, ok := cur.([]any)
			if !ok {
				return
			}
			want, ok := peKey(pe)
			if !ok {
				return
			}
			cur = nil
			for _, e := range l {
				if m, ok := e.(map[string]any); ok && keyOfLoose(m, pe) == want {
					cur = e
					break
				}
			}
		}
	}
}

// keyOfLoose is an element's identity under the key fields pe names.
func keyOfLoose(m map[string]any, pe fieldpath.PathElement) string {
	if pe.Key == nil {
		return ""
	}
	var b strings.Builder
	for _, f := range *pe.Key {
		b.WriteString(f.Name)
		b.WriteByte(0)
		if !appendScalarKey(&b, m[f.Name]) {
			return ""
		}
	}
	return b.String()
}

// serverSide is what the API server does to the merged object before it
// stores it: the kind's defaults, nulls pruned; for built-in kinds the round trip
// through their Go types (canonical quantities, empty maps and lists of
// omitempty fields dropped); metadata's empty labels and annotations
// dropped (custom resources' metadata takes the same round trip); and a
// Service keeps its allocated clusterIP when the apply leaves it out.
func serverSide(s *schema.Schema, tr schema.TypeRef, known bool, d *planObject, live, after map[string]any) (refusal string) {
	// The merge leaves a map or list whose every item it removed as null.
	// A default fills a null in; a built-in kind's Go type has no null (the
	// field is dropped), nor has metadata; a custom resource's schema
	// refuses a null it does not allow ("spec: Invalid value: null").
	d.defaults.apply(after)
	builtin := known && isBuiltinType(tr)
	if !builtin {
		if p := firstNull(s, tr, after, nil); p != nil {
			refusal = pathString(p) + `: Invalid value: "null": the apply removes every field of it, and the schema does not allow null`
		} else if m := d.defaults.missingRequired(after, ""); m != "" {
			refusal = m + ": Required value: the apply removes it, and the schema requires it"
		}
	}
	dropNulls(s, tr, after)
	if builtin {
		roundTrip(s, tr, after)
	}
	if meta, ok := after["metadata"].(map[string]any); ok {
		for _, k := range []string{"labels", "annotations"} {
			if m, ok := meta[k].(map[string]any); ok && len(m) == 0 {
				delete(meta, k)
			}
		}
	}
	if d.key.groupKind() == serviceKind {
		spec, _ := after["spec"].(map[string]any)
		lspec, _ := live["spec"].(map[string]any)
		if spec != nil && lspec != nil && spec["type"] != "ExternalName" {
			for _, k := range []string{"clusterIP", "clusterIPs"} {
				if _, ok := spec[k]; !ok && lspec[k] != nil {
					spec[k] = copyJSON(lspec[k])
				}
			}
		}
	}
	return refusal
}

// firstNull is the path of the first null (in key order) of a field that
// does not allow null, outside metadata; nil when there is none.
func firstNull(s *schema.Schema, tr schema.TypeRef, v any, path fieldpath.Path) fieldpath.Path {
	t, mt, l, lt := typedParts(s, tr, v)
	switch {
	case mt != nil:
		for _, k := range slices.Sorted(maps.Keys(t)) {
			if len(path) == 0 && k == "metadata" {
				continue
			}
			ft, ok := fieldType(mt, k)
			if !ok {
				continue
			}
			at := append(path[:len(path):len(path)], fieldpath.PathElement{FieldName: ptr(k)})
			if t[k] == nil {
				if !ft.Nullable {
					return at
				}
				continue
			}
			if p := firstNull(s, ft, t[k], at); p != nil {
				return p
			}
		}
	case lt != nil:
		for i, e := range l {
			if p := firstNull(s, lt.ElementType, e, append(path[:len(path):len(path)], fieldpath.PathElement{Index: ptr(i)})); p != nil {
				return p
			}
		}
	}
	return nil
}

// isBuiltinType reports a built-in kind's type (client-go's schema).
func isBuiltinType(tr schema.TypeRef) bool {
	return tr.NamedType != nil && strings.HasPrefix(*tr.NamedType, "io.k8s.api.")
}

// dropNulls removes null values of fields that do not allow null.
func dropNulls(s *schema.Schema, tr schema.TypeRef, v any) {
	t, mt, l, lt := typedParts(s, tr, v)
	switch {
	case mt != nil:
		for k, c := range t {
			ft, ok := fieldType(mt, k)
			if c == nil {
				if !ok || !ft.Nullable {
					delete(t, k)
				}
				continue
			}
			if ok {
				dropNulls(s, ft, c)
			}
		}
	case lt != nil:
		for _, e := range l {
			dropNulls(s, lt.ElementType, e)
		}
	}
}

const quantityType = "io.k8s.apimachinery.pkg.api.resource.Quantity"

// roundTrip applies a built-in kind's Go round trip to a JSON tree: a
// quantity takes its canonical form ("0.1" is stored as "100m"), a scalar
// omitempty field holding its zero value is dropped (smdOmitZero), and so
// is an empty map (of a Go map type) or list.
func roundTrip(s *schema.Schema, tr schema.TypeRef, v any) any {
	if tr.NamedType != nil && *tr.NamedType == quantityType {
		if q, ok := asQuantity(v); ok {
			return canonicalQuantity(q)
		}
		return v
	}
	t, mt, l, lt := typedParts(s, tr, v)
	switch {
	case mt != nil:
		if tr.NamedType != nil {
			for _, f := range smdOmitZero[*tr.NamedType] {
				if c, ok := t[f]; ok && isZeroScalar(c) {
					delete(t, f)
				}
			}
		}
		for k, c := range t {
			ft, ok := fieldType(mt, k)
			if !ok {
				continue
			}
			n := roundTrip(s, ft, c)
			if droppedEmpty(s, ft, n) {
				delete(t, k)
				continue
			}
			t[k] = n
		}
	case lt != nil:
		for i, e := range l {
			l[i] = roundTrip(s, lt.ElementType, e)
		}
	}
	return v
}

func isZeroScalar(v any) bool {
	switch t := v.(type) {
	case string:
		return t == ""
	case bool:
		return !t
	case int64:
		return t == 0
	case float64:
		return t == 0
	}
	return false
}

// droppedEmpty reports whether a Go round trip drops a field's value: an
// empty map of a map type (not a struct, which prints as {}), an empty
// list, or null.
func droppedEmpty(s *schema.Schema, tr schema.TypeRef, v any) bool {
	switch t := v.(type) {
	case nil:
		return true
	case []any:
		return len(t) == 0
	case map[string]any:
		if len(t) > 0 {
			return false
		}
		a, ok := s.Resolve(tr)
		return ok && a.Map != nil && len(a.Map.Fields) == 0
	}
	return false
}

func canonicalQuantity(q resource.Quantity) string { return q.String() }
