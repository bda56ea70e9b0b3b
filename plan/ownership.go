package plan

import (
	"fmt"
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// What the plan says when it cannot read who owns the live fields, or
// reads that someone else does. A server-side apply removes a field only
// when the applying manager owned it and no longer sets it: without
// managedFields the plan cannot tell, and a field that the render stops
// setting looks kept, however much its removal would cost. The plan then
// assumes that the field manager it is of owns what its render sets (the
// fields below are the render's, for some values) and says what the
// removal would do; and a live stack whose fields all belong to another
// manager is most likely applied under another name than the plan's.

// unownedRemovalField is a field whose removal by an apply is refused or
// costs the members, so that a plan that cannot tell whether the apply
// removes it (no managedFields) needs a decision. what says what the
// removal does.
type unownedRemovalField struct {
	kind  schema.GroupKind
	field string
	what  string
}

// unownedRemovalFields are the immutable fields the render sets (the
// immutableRules of the EtcdCluster and the DataStore; a Service's
// clusterIP is the server's, never the render's, and a Job is a hook,
// never applied) and the fields that shape the members (memberFields), and
// the DataStore's connection to its etcd.
var unownedRemovalFields = func() []unownedRemovalField {
	var out []unownedRemovalField
	for _, r := range immutableRules {
		if r.kind != etcdClusterKind && r.kind != dataStoreKind {
			continue
		}
		msg := r.addedOrRemoved
		if msg == "" {
			msg = r.message
		}
		out = append(out, unownedRemovalField{r.kind, r.field, "the API server refuses the apply (" + msg + ")"})
	}
	for _, f := range memberFields {
		out = append(out, unownedRemovalField{etcdClusterKind, f.field, f.message})
	}
	out = append(out,
		unownedRemovalField{dataStoreKind, "spec.endpoints", "every tenant control plane on this DataStore loses endpoints of its etcd"},
		unownedRemovalField{dataStoreKind, "spec.tlsConfig", "every tenant control plane on this DataStore loses credentials it authenticates to etcd with"},
		unownedRemovalField{dataStoreKind, "spec.basicAuth", "every tenant control plane on this DataStore loses the user name and password it authenticates to etcd with"})
	return out
}()

// unknownOwnershipFindings are the decisions of an apply of d onto l (live,
// planned without managedFields) that may remove an unownedRemovalField:
// l holds a value there (other than the API server's default, which an
// apply that removes it leaves as it is) that d does not set. Maps are
// followed down to the keys d leaves out; a list or a scalar that d sets
// replaces the live one whole, so nothing of it can be left behind.
func unknownOwnershipFindings(d, l *planObject, manager string) []Finding {
	gk := d.key.groupKind()
	var out []Finding
	for _, f := range unownedRemovalFields {
		if f.kind != gk {
			continue
		}
		path := dotted(f.field)
		var walk func(lv, dv any, at fieldpath.Path, def *defaultsNode)
		walk = func(lv, dv any, at fieldpath.Path, def *defaultsNode) {
			if lv == nil {
				return
			}
			if dv == nil {
				if def != nil && def.hasValue && canonicalJSON(def.value) == canonicalJSON(lv) {
					return
				}
				p := pathString(at)
				out = append(out, Finding{Verdict: NeedsDecision, Object: d.ref, Path: p, Message: fmt.Sprintf(
					"cannot decide: ownership unknown (the live object carries no managedFields), and the live object has %s %s, which the render does not set. "+
						"If %s applied it (the render sets it for other values), the apply removes it: %s; if another manager owns it, the apply keeps it. "+
						"Plan again with the live objects' managedFields (kubectl get --show-managed-fields) to know which, or decide",
					p, show(lv), manager, f.what)})
				return
			}
			lm, lok := lv.(map[string]any)
			dm, dok := dv.(map[string]any)
			if !lok || !dok {
				return
			}
			keys := make([]string, 0, len(lm))
			for k := range lm {
				keys = append(keys, k)
			}
			sort.Strings(keys)
			for _, k := range keys {
				pe := fieldpath.PathElement{FieldName: &k}
				walk(lm[k], dm[k], append(at[:len(at):len(at)], pe), def.child(pe))
			}
		}
		var def *defaultsNode
		if l.defaults != nil {
			def = l.defaults
			for _, pe := range path {
				def = def.child(pe)
			}
		}
		walk(valueAt(l.tree, path), valueAt(d.tree, path), path, def)
	}
	return out
}

// OtherOwners says that the field manager a plan is of owns no field of
// the live objects that carry managedFields: other managers own them all,
// so the stack was most likely applied under another name (kubectl apply
// --server-side without --field-manager applies as "kubectl", a
// client-side apply as "kubectl-client-side-apply", Helm as "helm").
// Planned as the plan's manager, the fields those managers own and the
// render no longer sets are kept; applied as one of them, they are
// removed, which the plan does not show. Apply as the plan's manager
// (ApplyCommand), or plan as the one you apply with (AsFieldManager).
type OtherOwners struct {
	// Objects is the number of live objects with managedFields.
	Objects int `json:"objects"`
	// Managers are their managers (of the objects themselves, not of a
	// subresource such as status), most objects first, then by name.
	Managers []ManagerCount `json:"managers"`
}

// ManagerCount is a field manager and the number of live objects it has
// fields of.
type ManagerCount struct {
	// Name is the manager's name.
	Name string `json:"name"`
	// Objects is how many live objects it has fields of.
	Objects int `json:"objects"`
}

// otherOwners is the OtherOwners of n live objects with managedFields
// whose managers (managersOf) owners counts; nil when n is 0.
func otherOwners(n int, owners map[string]int) *OtherOwners {
	if n == 0 || len(owners) == 0 {
		return nil
	}
	out := &OtherOwners{Objects: n, Managers: make([]ManagerCount, 0, len(owners))}
	for name, k := range owners {
		out.Managers = append(out.Managers, ManagerCount{name, k})
	}
	sort.Slice(out.Managers, func(i, j int) bool {
		a, b := out.Managers[i], out.Managers[j]
		if a.Objects != b.Objects {
			return a.Objects > b.Objects
		}
		return a.Name < b.Name
	})
	return out
}

// text is the paragraph WriteText prints for o, for manager's plan: the
// first five managers, and how many more.
func (o *OtherOwners) text(manager string) string {
	const most = 5
	listed := make([]string, 0, most+1)
	for _, m := range o.Managers[:min(most, len(o.Managers))] {
		listed = append(listed, fmt.Sprintf("%s (%d %s)", m.Name, m.Objects, plural(m.Objects, "object", "objects")))
	}
	if len(o.Managers) > most {
		listed = append(listed, fmt.Sprintf("and %d more", len(o.Managers)-most))
	}
	return fmt.Sprintf("Owned by other managers: %s, the field manager this plan is of, owns no field of the %d live %s with managedFields; %s %s. "+
		"The stack was likely applied under another name. Applied as %s, the fields they own and the render no longer sets stay; "+
		"applied as one of them, those fields are removed, which this plan does not show: apply as %s (%s), "+
		"or plan as the manager you apply with (--field-manager, plan.AsFieldManager).",
		manager, o.Objects, plural(o.Objects, "object", "objects"), plural(len(o.Managers), "its owner is", "their owners are"),
		strings.Join(listed, ", "), manager, manager, ApplyCommand(manager))
}

// managersOf counts, into owners, the managers of l's managedFields that
// write the object itself (not a subresource such as status, whose fields
// an apply never touches), and reports whether manager applied l. Only
// manager's Apply entry is its applies: an Update entry of the same name
// (a `kubectl create` or an operator's client.Update under that name) is
// another manager to the API server, whose fields an apply never removes,
// so it is counted as such, by its name and operation.
func managersOf(l *planObject, manager string, owners map[string]int) (own bool) {
	if l.managed == nil {
		return false
	}
	seen := map[string]bool{}
	for _, e := range l.managed.entries {
		if e.mgr.Subresource != "" {
			continue
		}
		if e.mgr.isApplier(manager) {
			return true
		}
		name := e.mgr.Name
		if name == manager {
			name += " (" + e.mgr.Operation + ")"
		}
		seen[name] = true
	}
	for name := range seen {
		owners[name]++
	}
	return false
}
