package plan

import (
	"fmt"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// A live file is what kubectl printed, or what a script or a person made
// of it. The rules here catch the files that look like a stack but are
// not the whole of it: a live stack without one of the objects whose
// absence makes a broken or misread file (its EtcdCluster, its DataStore,
// its PKI), and objects of the stack's kinds in another namespace.
// Planned as it is, such a file plans a create over an object that
// exists, and hides what the apply changes on it: a member count 3 -> 1,
// say, called safe. (spelling.go refuses the objects the API server never
// prints, a kind spelled "etcdcluster".)

// Kinds of the stack's PKI.
var (
	issuerKind      = schema.GroupKind{Group: "cert-manager.io", Kind: "Issuer"}
	certificateKind = schema.GroupKind{Group: "cert-manager.io", Kind: "Certificate"}
	secretKind      = schema.GroupKind{Kind: "Secret"}
	monitorKind     = schema.GroupKind{Group: "cozystack.io", Kind: "WorkloadMonitor"}
)

// sharesEndpoint reports whether two DataStores have an endpoint in
// common: they point at one etcd.
func sharesEndpoint(a, b map[string]any) bool {
	al, _ := valueAt(a, dotted("spec.endpoints")).([]any)
	bl, _ := valueAt(b, dotted("spec.endpoints")).([]any)
	for _, x := range al {
		for _, y := range bl {
			if x == y {
				return true
			}
		}
	}
	return false
}

// missingKinds are the kinds whose absence from a live stack means a
// broken or misread live file, or a stack that lost its etcd, its
// DataStore or its PKI: what the absent object may hide (the apply then
// updates it, with changes the plan does not see), and what creating it
// means if it is gone.
var missingKinds = map[schema.GroupKind]struct{ hides, creates string }{
	etcdClusterKind: {"a member-count or version change, a change the API server refuses",
		"a new, empty etcd: the data of the tenant control planes on it is not in it"},
	dataStoreKind: {"other endpoints or TLS Secrets under the tenant control planes on it, a driver change the API server refuses",
		"a new DataStore, and the tenant control planes that used the old one have lost their datastore"},
	issuerKind: {"another issuer of the etcd's certificates",
		"a new issuer of the etcd's PKI: what it signs changes under the etcd members and their clients"},
	certificateKind: {"other names, lifetimes or issuer of one of the etcd's certificates",
		"a new certificate of the etcd's PKI: cert-manager issues it anew where its Secret is gone (for a CA, a new CA, which the etcd members and their clients do not trust)"},
}

// missingFindings are those of creating d while evidence
// (stackLiveness) says the stack is live, and of the plan so far (res:
// the objects planned as updates are evidence too).
//
// The rule: an EtcdCluster, a DataStore, an Issuer or a Certificate to
// create in a live stack needs a decision: the live file is partial, or
// the stack lost it. A kept Secret (the etcd chart's placeholders
// cert-manager fills) needs one when the stack's other kept Secret is
// live (the Secrets were fetched, and this one is missing); with none of
// them live (left out of the fetch, as they hold private keys) it is a
// note: applying a placeholder over a live Secret sets two annotations.
// Every other kind is a note: the legit creates in a live stack are of
// those (an optional API newly served renders a new VPA, VMPodScrape,
// PodMonitor, dashboard or network policy; a version of the library adds
// a shape), and their absence hides no decision the plan would grade.
func missingFindings(d *planObject, evidence []witness, live []*planObject, res *Result) ([]Finding, error) {
	gk := d.key.groupKind()
	fetch := fetchCommand(d.ref)
	if gk == secretKind && etcdshapes.IsKept(d.obj) {
		for _, l := range live {
			if l.key.groupKind() == secretKind && l.key.namespace == d.key.namespace && l.matched && etcdshapes.IsKept(l.obj) {
				return []Finding{{Verdict: NeedsDecision, Object: d.ref, Message: "missing from the live objects: the stack's Secret " + l.ref.String() +
					" is live, but not this Secret. Either the live file lacks it (fetched with the stack's Secrets, yet without this one: a hand-edited or broken file), " +
					"or it is gone, and cert-manager issues a new key and certificate into the placeholder the apply creates " +
					"(for the CA's, a new CA, which the etcd members and their clients do not trust). " +
					"Fetch it (" + fetch + ") into the live file and plan again, or decide that it does not exist (kubectl answers NotFound)"}}, nil
			}
		}
		return []Finding{{Verdict: Note, Object: d.ref, Message: "not among the live objects: no Secret of the stack is live (a live file fetched without them, " +
			"as they hold private keys), so the plan cannot compare this placeholder: where it exists the apply sets its two annotations, " +
			"where it does not the apply creates the placeholder cert-manager fills; fetch it (" + fetch + ") to compare it"}}, nil
	}
	seen := evidenceSeen(evidence)
	what, identity := missingKinds[gk]
	if !identity {
		return []Finding{{Verdict: Note, Object: d.ref, Message: "not among the live objects: " + seen + ", but not this " + d.ref.Kind +
			". It is new (its API newly served, or a shape this version of the library adds), and the apply creates it; " +
			"or the live file lacks it (a kubectl get that skipped its kind), and the apply updates the live one with changes this plan does not show: " +
			"fetch it (" + fetch + ") to see them"}}, nil
	}
	more, err := missingEvidence(d, evidence, res)
	if err != nil {
		return nil, err
	}
	if gk == etcdClusterKind && valueAt(d.tree, dotted("spec.bootstrap.restore.source")) != nil {
		// The restore procedure: the cluster deleted, recreated from a
		// snapshot (docs/procedures.md).
		what.creates = "a new etcd, bootstrapped from the snapshot: what was written after it is not in it (the restore, if that is what you mean)"
	}
	return []Finding{{Verdict: NeedsDecision, Object: d.ref, Message: "missing from the live objects: the live file is partial, or the stack lost it: " + seen + ", but not this " + d.ref.Kind +
		". Either the live file lacks it (a kubectl get that skipped its kind: RBAC Forbidden, the kind left out of the list, a failure whose exit status was ignored; " +
		"a hand-edited file; the object in another namespace), and what the apply changes on it is not known (" + what.hides + "); " +
		"or it is gone, and the apply creates " + what.creates + ". " +
		"Fetch it (" + fetch + ") into the live file and plan again, or decide that it does not exist (kubectl answers NotFound)" + more}}, nil
}

// missingEvidence is what the live objects say of a missing object d
// (evidence: stackLiveness's):
// for an EtcdCluster, the member count of the stack's live WorkloadMonitor
// where it differs from the render's; and the stack's live objects the
// apply updates, which say the live stack differs from the render.
func missingEvidence(d *planObject, evidence []witness, res *Result) (string, error) {
	var b strings.Builder
	if d.key.groupKind() == etcdClusterKind {
		for _, w := range evidence {
			l := w.obj
			if w.why != "" || l.key.groupKind() != monitorKind || l.key.namespace != d.key.namespace {
				continue
			}
			if err := l.finish(); err != nil {
				return "", err
			}
			lr, lok := valueAt(l.tree, dotted("spec.replicas")).(int64)
			def := d.defaults.at("spec.replicas")
			dr := valueAt(d.tree, dotted("spec.replicas"))
			if dr == nil && def != nil && def.hasValue {
				dr = def.value
			}
			if r, ok := dr.(int64); lok && ok && r != lr {
				_, msg := replicaChange(lr, r, nil)
				fmt.Fprintf(&b, ". The live WorkloadMonitor %s counts %d %s where the render has %d, so the live cluster likely has %d, and the apply would change it: %s",
					l.ref.Namespace+"/"+l.ref.Name, lr, plural(int(lr), "member", "members"), r, lr, msg)
			}
			break
		}
	}
	var updated []string
	for _, o := range res.Objects {
		if o.Action != Update {
			continue
		}
		paths := make([]string, 0, 3)
		for i, c := range o.Changes {
			if i == 3 {
				paths = append(paths, "...")
				break
			}
			paths = append(paths, c.Path)
		}
		updated = append(updated, o.ObjectRef.String()+" ("+strings.Join(paths, ", ")+")")
	}
	if n := len(updated); n > 0 {
		more := ""
		if n > 3 {
			more = ", and " + strconv.Itoa(n-3) + " more"
			updated = updated[:3]
		}
		fmt.Fprintf(&b, ". %d of the stack's live objects %s from the render (%s%s), so this one likely does too",
			n, plural(n, "differs", "differ"), strings.Join(updated, ", "), more)
	}
	return b.String(), nil
}

// refList names the first n objects of l, "and N more" after them.
func refList(l []*planObject, n int) string {
	names := make([]string, 0, n+1)
	for i, o := range l {
		if i == n {
			names = append(names, "and "+strconv.Itoa(len(l)-n)+" more")
			break
		}
		names = append(names, o.ref.String())
	}
	return strings.Join(names, ", ")
}

// fetchCommand is the kubectl command that prints the live object ref
// names, as the live file needs it. A kind outside the table of shapes
// (a modifier's own object) is named by its kind in lower case, which
// kubectl resolves through discovery as it resolves a resource.
func fetchCommand(ref ObjectRef) string {
	gvk := schema.FromAPIVersionAndKind(ref.APIVersion, ref.Kind)
	gvr, ok := etcdshapes.ResourceFor(gvk)
	resource := gvr.Resource
	if !ok {
		resource = strings.ToLower(gvk.Kind)
	}
	if gvk.Group != "" {
		resource += "." + gvk.Group
	}
	ns := ""
	if ref.Namespace != "" {
		ns = "-n " + ref.Namespace + " "
	}
	return "kubectl get " + ns + resource + " " + ref.Name + " -o yaml --show-managed-fields"
}

// otherNamespaces is the note of the live objects of the stack's kinds
// (scope's, and the tenant cluster's KamajiControlPlane) in other
// namespaces than the stack's: the plan compares none of them, and an
// object of the stack moved there (a hand-edited file) or a fetch from the
// wrong namespace would otherwise pass unsaid. The objects with a name of
// the stack's are listed first.
func otherNamespaces(n naming.Names, scope map[objectKey]bool, live []*planObject) []Finding {
	kinds := map[schema.GroupKind]bool{}
	for k := range scope {
		kinds[k.groupKind()] = true
	}
	if n.Caller == naming.CallerCluster {
		kinds[kamajiControlPlaneKind] = true
	}
	var named, others []*planObject
	for _, l := range live {
		if l.key.namespace == "" || l.key.namespace == n.Namespace || !kinds[l.key.groupKind()] {
			continue
		}
		k := l.key
		k.namespace = n.Namespace
		if scope[k] || (k.groupKind() == kamajiControlPlaneKind && k.name == n.Release) {
			named = append(named, l)
		} else {
			others = append(others, l)
		}
	}
	all := append(named, others...)
	if len(all) == 0 {
		return nil
	}
	return []Finding{{Verdict: Note, Message: fmt.Sprintf("%d live %s of the stack's kinds %s in other namespaces than %s (%s): "+
		"the plan compares the stack in %s only, and leaves %s alone; an object of the stack there means a live file "+
		"fetched from another namespace, or edited (kubectl get -n %s ...)",
		len(all), plural(len(all), "object", "objects"), plural(len(all), "is", "are"), n.Namespace, refList(all, 5), n.Namespace,
		plural(len(all), "it", "them"), n.Namespace)}}
}
