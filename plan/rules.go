package plan

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/structured-merge-diff/v6/fieldpath"
)

// The rules below restate what the API server enforces (the CRDs' CEL
// rules and the built-in kinds' immutable fields) and what costs
// availability, so that a plan says so before an apply fails half-way or
// succeeds at the wrong price. The messages are the CRDs' own where they
// have one.

var (
	roleBindingKind = schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "RoleBinding"}
	serviceKind     = schema.GroupKind{Kind: "Service"}
	jobKind         = schema.GroupKind{Group: "batch", Kind: "Job"}
)

// immutableRule refuses any change under a field. addedOrRemoved, when
// set, is the message for the field itself appearing or disappearing,
// which the CRD checks with a rule of its own (has(self.f) ==
// has(oldSelf.f)) and words differently from a changed value.
type immutableRule struct {
	kind           schema.GroupKind
	field          string
	message        string
	addedOrRemoved string
}

var immutableRules = []immutableRule{
	{etcdClusterKind, "spec.tls",
		"spec.tls is immutable post-create; delete and recreate the cluster to change TLS configuration",
		"spec.tls cannot be added to or removed from an existing cluster; delete and recreate"},
	{etcdClusterKind, "spec.storage.storageClassName",
		"spec.storage.storageClassName is immutable post-create (a PVC's storageClassName itself is immutable, and the operator does not roll PVCs); delete and recreate the cluster to change the StorageClass",
		"spec.storage.storageClassName cannot be added to or removed from an existing cluster; delete and recreate"},
	// The API server defaults medium to "", so it is never absent there:
	// removing it is a change to "".
	{etcdClusterKind, "spec.storage.medium", "spec.storage.medium is immutable; delete and recreate the cluster to change the storage backend", ""},
	{etcdClusterKind, "spec.bootstrap",
		"spec.bootstrap is immutable post-create; it is consulted only at first bootstrap (restore into a new cluster)",
		"spec.bootstrap cannot be added to or removed from an existing cluster; it is consulted only at first bootstrap"},
	{etcdClusterKind, "spec.auth",
		"spec.auth is immutable post-create; delete and recreate the cluster to change auth configuration",
		"spec.auth cannot be added to or removed from an existing cluster; delete and recreate"},
	{dataStoreKind, "spec.driver", "Datastore driver is immutable", ""},
	{roleBindingKind, "roleRef", "roleRef is immutable; delete and recreate the RoleBinding", ""},
	{serviceKind, "spec.clusterIP", "spec.clusterIP is immutable; delete and recreate the Service", ""},
	{serviceKind, "spec.clusterIPs", "spec.clusterIPs is immutable; delete and recreate the Service", ""},
	{jobKind, "spec.template", "a Job's spec.template is immutable; delete and recreate the Job", ""},
	{jobKind, "spec.selector", "a Job's spec.selector is immutable; delete and recreate the Job", ""},
}

// messageFor is the rule's message for a change of its field between live
// and desired: addedOrRemoved when one side has the field and the other
// does not, else message.
func (r immutableRule) messageFor(live, desired map[string]any) string {
	if r.addedOrRemoved != "" && (valueAt(live, dotted(r.field)) == nil) != (valueAt(desired, dotted(r.field)) == nil) {
		return r.addedOrRemoved
	}
	return r.message
}

func createFindings(d *planObject) []Finding {
	if d.key.groupKind() != etcdClusterKind {
		return nil
	}
	if src := valueAt(d.tree, dotted("spec.bootstrap.restore.source")); src != nil {
		return []Finding{{Verdict: Note, Object: d.ref, Path: "spec.bootstrap.restore",
			Message: "the new cluster bootstraps from the snapshot " + show(src)}}
	}
	return nil
}

// deletingFindings grade a live object that is being deleted (its
// metadata.deletionTimestamp is set; finalizers hold it): an apply
// updates it until it is gone, and nothing recreates it until the next
// apply after that; a delete has nothing left to do. Where the object
// holds the stack's state or identity (holdsState) that is a decision: the
// data or the keys go with it, and a plan that called it routine (safe,
// empty, exit 0) would let a CI gate pass over an etcd going away. A
// stateless object (a CronJob, a Service, RBAC) stays a note: the next
// apply recreates it as it was.
func deletingFindings(l *planObject, a Action) []Finding {
	when := valueAt(l.tree, dotted("metadata.deletionTimestamp"))
	if when == nil {
		return nil
	}
	msg := "the live object is being deleted (deletionTimestamp " + show(when) + finalizers(l) + "): "
	what, stateful := holdsState(l)
	switch {
	case a == Delete:
		// The plan deletes it too: deleteFindings grade that.
		return []Finding{{Verdict: Note, Object: l.ref, Path: "metadata.deletionTimestamp", Message: msg + "the delete is already under way"}}
	case stateful:
		return []Finding{{Verdict: NeedsDecision, Object: l.ref, Path: "metadata.deletionTimestamp", Message: "the live " + l.ref.Kind + " is being deleted (deletionTimestamp " +
			show(when) + finalizers(l) + "), and " + what + " goes with it: the apply " + map[Action]string{Unchanged: "leaves it", Update: "updates it"}[a] +
			" until it is gone, and would recreate it only after the deletion completes (" + recreates(l) + "). " +
			"Find what deletes it (kubectl get -o yaml: ownerReferences, finalizers; who ran kubectl delete) and stop that, or decide the stack is meant to go, and plan again"}}
	default:
		return []Finding{{Verdict: Note, Object: l.ref, Path: "metadata.deletionTimestamp", Message: msg + "the apply " + map[Action]string{Unchanged: "leaves it", Update: "updates it"}[a] +
			" until it is gone, and nothing recreates it until the next apply; wait for the deletion to finish (or find what holds it), then plan again"}}
	}
}

// stateKinds are the kinds, besides missingKinds' (the EtcdCluster, the
// DataStore, the PKI's Issuers and Certificates), whose live objects hold
// the stack's state or identity: a Secret of the stack (a kept Secret, a
// CA's or a TLS Secret: private keys), a member's volume (its data).
var stateKinds = map[schema.GroupKind]string{
	secretKind: "its private key and certificate",
	pvcKind:    "the member's data on the volume",
}

// holdsState reports whether a live object holds the stack's state or
// identity, and what of it, for deletingFindings.
func holdsState(l *planObject) (string, bool) {
	gk := l.key.groupKind()
	switch gk {
	case etcdClusterKind:
		return "the etcd's data (the tenant control planes' state)", true
	case dataStoreKind:
		return "what points the tenant control planes at the etcd", true
	case issuerKind:
		return "the issuer of the etcd's certificates", true
	case certificateKind:
		return "the certificate cert-manager keeps issued", true
	}
	what, ok := stateKinds[gk]
	return what, ok
}

// recreates says who recreates a deleted stateful object, and what that
// gives.
func recreates(l *planObject) string {
	if m, ok := missingKinds[l.key.groupKind()]; ok {
		return "the next apply, as a create: " + m.creates
	}
	switch l.key.groupKind() {
	case secretKind:
		return "the next apply or cert-manager, as a new Secret with a new key: for the CA's, a new CA, which the etcd members and their clients do not trust"
	case pvcKind:
		return "the etcd operator, as a new, empty volume: the member joins anew without its data"
	}
	return "the next apply, as a create"
}

// deletingWitnesses are the findings of the live objects that are not
// planned but refer to the stack and hold its state (a member's volume, a
// TLS Secret cert-manager made; stackLiveness's evidence), being deleted.
func deletingWitnesses(evidence []witness) []Finding {
	var out []Finding
	for _, w := range evidence {
		if w.why == "" || w.obj.matched {
			continue
		}
		if _, ok := holdsState(w.obj); !ok {
			continue
		}
		out = append(out, deletingFindings(w.obj, Unchanged)...)
	}
	return out
}

// finalizers lists a live object's finalizers for a message, "" when none.
func finalizers(l *planObject) string {
	list, _ := valueAt(l.tree, dotted("metadata.finalizers")).([]any)
	if len(list) == 0 {
		return ""
	}
	return "; finalizers " + show(list)
}

// nothingLive is the finding of a plan that found nothing of the stack
// among n live objects (Result.NothingLive): a decision, since a live
// file that a failed or misdirected kubectl get wrote looks the same as
// a fresh install; with ExpectExisting (the stack is known to exist) a
// decision that says so; with FreshInstall (the stack is known not to
// exist) a note.
func nothingLive(n int, cfg planConfig) Finding {
	what := "the live objects are empty"
	if n > 0 {
		what = fmt.Sprintf("none of the %d live objects is this stack's", n)
	}
	switch {
	case cfg.freshInstall:
		return Finding{Verdict: Note, Message: "nothing live: " + what + ", so every object is a create: a fresh install, " +
			"as expected (--fresh-install, plan.FreshInstall)"}
	case cfg.expectExisting:
		return Finding{Verdict: NeedsDecision, Message: "nothing live: " + what + ", yet the stack is expected to exist (--expect-existing, plan.ExpectExisting): " +
			"the plan is of a fresh install, every object a create, which is not safe to apply over a stack that exists. " +
			"Check what fetched the live objects (the namespace, the context, the kinds; kubectl get -n NS -o yaml --show-managed-fields KINDS...) and plan again"}
	}
	return Finding{Verdict: NeedsDecision, Message: "nothing live: " + what + ": the live file holds nothing of the stack, so the plan is of a fresh install, every object a create. " +
		"A kubectl get that failed (an empty file left, its error on stderr) or was misdirected (another namespace, another context, the stack's kinds left out) " +
		"writes the same file, and applying this plan over a stack that exists changes it unseen (its member count, say). " +
		"Check what fetched the live objects (kubectl get -n NS -o yaml --show-managed-fields KINDS...) and plan again; " +
		"to plan a fresh install, say so: etcdshapes plan --fresh-install (plan.FreshInstall)"}
}

// notFresh is FreshInstall's finding where something of the stack is
// live (lv is not nothingLive): the install is not fresh.
func notFresh(lv liveness) Finding {
	return Finding{Verdict: NeedsDecision, Message: "a fresh install was expected (--fresh-install, plan.FreshInstall), but the stack is live: " +
		evidenceSeen(append(slices.Clone(lv.evidence), lv.related...)) + ", so the plan is of an apply over the live stack, not of a fresh install. " +
		"Check the release, the namespace and the live file; to plan the apply over the live stack, plan without --fresh-install (with --expect-existing)"}
}

// collisionFindings are those of creating ref when it is a DataStore whose
// name another stack can render too (naming.DataStoreCollision; names,
// when known, is the desired stack's, left out of the stacks named): the
// DataStore is cluster-scoped and absent from the live objects, so the
// plan cannot tell whether it exists; if it does, the apply repoints the
// other stack's control planes. It needs the live DataStore, or a
// decision that there is none.
func collisionFindings(ref ObjectRef, names *naming.Names) []Finding {
	if ref.APIVersion == "" || schema.FromAPIVersionAndKind(ref.APIVersion, ref.Kind).GroupKind() != dataStoreKind {
		return nil
	}
	other, ok := "", false
	if names != nil && names.DataStore() == ref.Name {
		other, ok = names.DataStoreCollision()
	} else {
		other, ok = naming.DataStoreCollision(ref.Name)
	}
	if !ok {
		return nil
	}
	return []Finding{{Verdict: NeedsDecision, Object: ref, Message: fmt.Sprintf(
		"cannot decide: the live objects hold no DataStore %q (it is cluster-scoped: a live file holds it only when kubectl get was asked for datastores), "+
			"while %s renders the same name (a long <namespace>.<release> is cut and hashed into 63 characters; the scheme is frozen). "+
			"If it exists, the apply repoints every tenant control plane on it at this etcd, and their data does not move. "+
			"Fetch it into the live file (kubectl get datastores.kamaji.clastix.io %s -o yaml --show-managed-fields) and plan again, "+
			"or decide that it does not exist (kubectl answers NotFound)",
		ref.Name, other, ref.Name)}}
}

// updateFindings grade the changes of an update of l to after (the
// object as the API server stores it after the apply of d).
func updateFindings(d, l *planObject, after map[string]any, changes []FieldChange) []Finding {
	var out []Finding
	add := func(v Verdict, path, msg string) {
		out = append(out, Finding{Verdict: v, Object: d.ref, Path: path, Message: msg})
	}
	gk := d.key.groupKind()
	// A quantity respelled is no other change: it has its note, and the
	// rules below grade the rest.
	graded := make([]FieldChange, 0, len(changes))
	for _, c := range changes {
		if qs, ok := quantitiesRespelled(c); ok {
			add(Note, c.Path, respelling(gk, qs))
			continue
		}
		graded = append(graded, c)
	}
	changes = graded
	for _, r := range immutableRules {
		if r.kind != gk {
			continue
		}
		for _, c := range changes {
			if covers(c, r.field, l.tree, after) {
				add(Refused, c.Path, r.messageFor(l.tree, after))
			}
		}
	}
	out = append(out, pkiFindings(d, l, after, changes)...)
	switch gk {
	case etcdClusterKind:
		for _, c := range changes {
			switch {
			case covers(c, "spec.replicas", l.tree, after):
				v, msg := replicaChange(valueAt(l.tree, dotted("spec.replicas")), valueAt(after, dotted("spec.replicas")), l.defaults.at("spec.replicas"))
				add(v, "spec.replicas", msg)
			case covers(c, "spec.storage.size", l.tree, after):
				if v, msg, ok := sizeChange(valueAt(l.tree, dotted("spec.storage.size")), valueAt(after, dotted("spec.storage.size"))); ok {
					add(v, "spec.storage.size", msg)
				}
			case covers(c, "spec.version", l.tree, after):
				v, msg := versionChange(valueAt(l.tree, dotted("spec.version")), valueAt(after, dotted("spec.version")))
				add(v, "spec.version", msg)
			}
			if covers(c, quotaField, l.tree, after) {
				if v, msg, ok := quotaChange(valueAt(l.tree, dotted(quotaField)), valueAt(after, dotted(quotaField)), valueAt(after, dotted("spec.storage.size"))); ok {
					add(v, quotaField, msg)
				}
			}
			for _, f := range memberFields {
				if covers(c, f.field, l.tree, after) {
					add(Note, f.field, f.message)
				}
			}
			for _, r := range limitRules {
				if covers(c, r.field, l.tree, after) {
					if msg, ok := limitDrop(r, valueAt(l.tree, dotted(r.field)), valueAt(after, dotted(r.field))); ok {
						add(NeedsDecision, r.field, msg)
					}
				}
			}
		}
	case dataStoreKind:
		// Where the control planes on the DataStore connect, and with what
		// credentials: never safe to change, whoever renders it. Two stacks
		// can render one DataStore name (a long <namespace>.<release> is
		// cut and hashed, and the result may be another release's plain
		// name; the scheme is frozen), so the other's apply would repoint
		// this one's control planes at its etcd.
		other := otherEtcd(l.tree, after)
		for _, c := range changes {
			switch {
			case covers(c, "spec.endpoints", l.tree, after):
				add(NeedsDecision, "spec.endpoints", "every tenant control plane on this DataStore"+usedBy(l)+
					" starts talking to other endpoints; the data does not move with them"+other)
			case covers(c, "spec.basicAuth", l.tree, after):
				add(NeedsDecision, "spec.basicAuth", "every tenant control plane on this DataStore"+usedBy(l)+
					" starts authenticating to etcd with other credentials (a user name and password from other Secrets, or none); "+
					"with the wrong ones it loses its datastore")
			case covers(c, "spec.tlsConfig", l.tree, after):
				add(NeedsDecision, "spec.tlsConfig", "every tenant control plane on this DataStore"+usedBy(l)+
					" starts authenticating to etcd with other credentials (the Secrets its CA, client certificate and key come from); "+
					"with the wrong ones it loses its datastore")
			}
		}
	}
	return dedupe(out)
}

// respelling is the note of a quantity of a custom resource whose
// spelling the apply changes, its value the same ("0.1" -> "100m", a Helm
// install's spelling against etcdshapes' canonical one).
// apiextensions-apiserver stores a custom resource as it is sent (a
// quantity is an int-or-string value to it, never normalised), so the
// apply writes the object, and the strategy of custom resources bumps
// metadata.generation for any change outside metadata
// (customResourceStrategy.PrepareForUpdate). etcd-operator compares the
// spec it adopted with quantities by value (specEqualsObserved:
// Quantity.Cmp, equality.Semantic), so it adopts nothing.
func respelling(gk schema.GroupKind, qs []respelledQuantity) string {
	spellings := make([]string, len(qs))
	for i, q := range qs {
		spellings[i] = strings.TrimPrefix(q.at+" ", " ") + show(q.live) + " -> " + show(q.spelt)
	}
	msg := fmt.Sprintf("the same %s spelled another way (%s): the API server stores a custom resource as it is sent, "+
		"so the apply writes the object: a new resourceVersion, and metadata.generation goes up by one",
		plural(len(qs), "quantity", "quantities"), strings.Join(spellings, ", "))
	if gk == etcdClusterKind {
		return msg + "; etcd-operator compares quantities by value, so it adopts no new target and no member changes"
	}
	return msg + "; its controller reads the same value"
}

// memberFields are the EtcdCluster's fields that shape its members (their
// Pods, and the objects etcd-operator creates for each) other than
// spec.version, which versionChange grades: etcd-operator copies them onto
// a member when it creates one and never re-templates a running member
// (the CRD's descriptions of these fields; etcd-operator's
// docs/concepts.md, "Pod scheduling and additional metadata" and "etcd
// tuning options"; EtcdMemberSpec: "existing members are not re-templated
// when the cluster spec changes"), so a change rolls nothing.
var memberFields = []struct{ field, message string }{
	{"spec.resources", onNewMembers("resources (the etcd container's requests and limits)")},
	{"spec.affinity", onNewMembers("affinity")},
	{"spec.topologySpreadConstraints", onNewMembers("topology spread constraints")},
	{"spec.imagePullSecrets", onNewMembers("image pull Secrets")},
	{"spec.options", onNewMembers("etcd flags (spec.options: the backend quota, compaction, the snapshot count)")},
	{"spec.additionalMetadata", "etcd-operator stamps the new labels and annotations only on the objects it creates from now on " +
		"(the Pods, PVCs, Services, PodDisruptionBudget and EtcdMembers of new members): the existing ones keep theirs, and no member rolls"},
}

// quantityRule is the rule a live value breaks as a quantity.
func quantityRule(v any) string {
	_, rule := quantityOf(v)
	return rule
}

// memoryLimitField is the etcd container's memory limit.
const memoryLimitField = "spec.resources.limits.memory"

// The memory limit's rule (limitDrop, limitRules' first): a lower memory
// limit, or one set where the live spec has none (no limit, or a limit of
// 0, which is none). etcd-operator gives it to the members it creates
// from now on, and such a member (a replacement after a node is lost, a
// scale-up) first copies the whole database from the leader and maps it
// into memory, so a limit below what the running members use kills it
// while it joins (OOMKilled, again at every restart): the cluster stays a
// member short exactly when it has lost one. The running members cannot
// tell the plan their use, so a drop needs a decision; a raise or a
// removal is the note every member field has. The ephemeral storage is
// the same case, with the kubelet's eviction for the OOMKill.

// limitRule is a resource limit of the etcd container whose drop a new
// member may not survive, and what it does to such a member.
type limitRule struct {
	field, name, hurts, check string
}

// limitRules are the limits limitDrop grades: the memory (a joining
// member maps the whole database) and the ephemeral storage (the kubelet
// evicts a Pod past it: its logs and writable layer).
var limitRules = []limitRule{
	{memoryLimitField, "memory", "copies the whole database and maps it into memory while it joins, and is OOMKilled if it needs more", "the running members' memory use (kubectl top pod)"},
	{"spec.resources.limits.ephemeral-storage", "ephemeral-storage", "writes its logs and writable layer to the node's disk, and is evicted by the kubelet if it uses more",
		"the running members' ephemeral storage use (kubectl get --raw /api/v1/nodes/NODE/proxy/stats/summary)"},
}

// limitDrop grades a lower limit of r, or one set where the live spec has
// none (absent, or 0, which is none): see the memory limit's rule above.
func limitDrop(r limitRule, live, desired any) (string, bool) {
	d, dok := asQuantity(desired)
	if !dok || d.IsZero() {
		// 0 is no limit (etcd.Options.Resources, the charts): a removal.
		return "", false
	}
	if l, ok := asQuantity(live); live == nil || ok && l.IsZero() {
		article := "a"
		if strings.ContainsRune("aeiou", rune(r.name[0])) {
			article = "an"
		}
		return fmt.Sprintf("%s %s limit %s is set where the running members have none: a member etcd-operator creates from now on "+
			"(a replacement, a scale-up) %s; check %s against it first", article, r.name, d.String(), r.hurts, r.check), true
	}
	l, lok := asQuantity(live)
	if !lok || l.Sign() < 0 {
		// A live limit the plan cannot read as a quantity (2^63 or more,
		// 1e100) or that is negative (the CRD's pattern admits them)
		// cannot be compared: graded as the drop it may be, never as safe.
		rule := quantityRule(live)
		if lok {
			rule = "negative"
		}
		return fmt.Sprintf("the live %s limit %s is no quantity the plan can compare with %s (%s): if it is higher, a member etcd-operator creates from now on "+
			"(a replacement, a scale-up) %s than %s; check %s against it first", r.name, invalid.FormatValue(live), d.String(), rule, r.hurts, d.String(), r.check), true
	}
	if d.Cmp(l) >= 0 {
		return "", false
	}
	return fmt.Sprintf("the %s limit drops %s -> %s: a member etcd-operator creates from now on (a replacement, a scale-up) "+
		"%s than %s, so a lost member's replacement can fail again at every restart; check %s against it first",
		r.name, l.String(), d.String(), r.hurts, d.String(), r.check), true
}

// onNewMembers is the note of a change of a member field that etcd-operator
// applies to new members only.
func onNewMembers(what string) string {
	return "etcd-operator gives the new " + what + " only to the members it creates from now on (a scale-up, a replacement): " +
		"it does not roll the running members, which keep theirs until each is replaced"
}

// otherEtcd says, for a DataStore whose live endpoints share none with
// the desired ones, which etcd the live one points at: the endpoints the
// stacks render are "<etcd>.<namespace>.svc:2379".
func otherEtcd(live, desired map[string]any) string {
	l, _ := valueAt(live, dotted("spec.endpoints")).([]any)
	d, _ := valueAt(desired, dotted("spec.endpoints")).([]any)
	if len(l) == 0 {
		return ""
	}
	for _, x := range l {
		for _, y := range d {
			if x == y {
				return ""
			}
		}
	}
	host, _, _ := strings.Cut(fmt.Sprint(l[0]), ":")
	name, rest, _ := strings.Cut(host, ".")
	ns, svc, _ := strings.Cut(rest, ".")
	if svc != "svc" || name == "" || ns == "" {
		return "; the live DataStore points at another datastore (" + show(l) + ")"
	}
	return fmt.Sprintf("; the live DataStore points at another etcd, %s in namespace %s: if it is another stack's "+
		"(one DataStore name for two releases: a long <namespace>.<release> is cut and hashed into 63 characters, "+
		"which can be another release's name), applying moves that cluster's control plane to this etcd", name, ns)
}

// ownershipFindings are what the prediction itself found: an apply the
// API server refuses outright, and live fields the embedded schema does
// not know.
func ownershipFindings(d *planObject, p *prediction) []Finding {
	var out []Finding
	if p.refusal != "" {
		out = append(out, Finding{Verdict: Refused, Object: d.ref, Message: p.refusal})
	}
	if len(p.unknown) > 0 {
		msg := "the live object has fields the schema of " + d.ref.APIVersion + " " + d.ref.Kind +
			" this library embeds does not know (a newer CRD or API version?); the plan leaves them as they are: " + strings.Join(p.unknown, ", ")
		v := Note
		switch gk := d.key.groupKind(); gk {
		case etcdClusterKind, dataStoreKind:
			// The API server knows them (it prunes what its CRD does not
			// have), so an apply by a manager that owns them removes
			// them, and what they do to the members or the control
			// planes cannot be graded here.
			v = NeedsDecision
			msg += "; the API server knows them, and an apply by a field manager that owns them removes them, with an effect on the " +
				map[schema.GroupKind]string{etcdClusterKind: "etcd members", dataStoreKind: "tenant control planes"}[gk] +
				" this plan cannot grade: check them in the live object (kubectl get -o yaml --show-managed-fields) and the CRD the cluster serves, or plan with an etcdshapes that knows them"
		}
		out = append(out, Finding{Verdict: v, Object: d.ref, Message: msg})
	}
	return out
}

func hasVerdict(fs []Finding, v Verdict) bool {
	for _, f := range fs {
		if f.Verdict == v {
			return true
		}
	}
	return false
}

// deleteFindings grade a delete. rendersStack says whether the desired
// objects render the stack at all (not a cluster that stays on a shared
// DataStore).
func deleteFindings(l *planObject, rendersStack bool) []Finding {
	if api, optional := optionalAPIOf(l.key.groupKind()); optional && rendersStack {
		return []Finding{{Verdict: NeedsDecision, Object: l.ref,
			Message: "this live object proves its API is served, and the stack renders it wherever " + api +
				" is served, yet the desired objects leave it out: list the API (Request.APIVersions, --api-versions; " +
				"plan.ForRequest infers it from the live object) to keep it, or decide to delete it"}}
	}
	switch l.key.groupKind() {
	case etcdClusterKind:
		return []Finding{{Verdict: NeedsDecision, Object: l.ref,
			Message: "deletes the etcd cluster and its data: its members stop, their data volumes go with them (each PVC is owned by its EtcdMember, which the EtcdCluster owns), and every tenant control plane on it loses its datastore; take a snapshot first"}}
	case dataStoreKind:
		return []Finding{{Verdict: NeedsDecision, Object: l.ref,
			Message: "deletes the Kamaji DataStore" + usedBy(l) + "; tenant control planes on it lose their datastore"}}
	}
	return nil
}

// dataStoreMove reports a tenant cluster's KamajiControlPlane that names
// another DataStore than target: applying the chart moves it, and Kamaji
// migrates the tenant's data.
func dataStoreMove(n naming.Names, target string, live map[objectKey]*planObject) ([]Finding, error) {
	kcp := live[kcpKey(n.Namespace, n.Release)]
	if kcp == nil {
		return nil, nil
	}
	if err := kcp.finish(); err != nil {
		return nil, err
	}
	current, _ := valueAt(kcp.tree, dotted("spec.dataStoreName")).(string)
	if current == target {
		return nil, nil
	}
	from := fmt.Sprintf("DataStore %q", current)
	if current == "" {
		from = "Kamaji's default DataStore"
	}
	return []Finding{{Verdict: NeedsDecision, Object: kcp.ref, Path: "spec.dataStoreName",
		Message: fmt.Sprintf("the tenant cluster moves from %s to DataStore %q: Kamaji migrates its data, "+
			"which freezes writes to the tenant API server for the migration, and every worker node's kubelet "+
			"must be restarted afterwards", from, target)}}, nil
}

// replicaChange describes a member-count change by its quorum effect. A
// side without the field has the CRD's default (def), as the API server
// fills it in.
func replicaChange(live, desired any, def *defaultsNode) (Verdict, string) {
	if def != nil && def.hasValue {
		if live == nil {
			live = def.value
		}
		if desired == nil {
			desired = def.value
		}
	}
	from, _ := live.(int64)
	to, _ := desired.(int64)
	msg := fmt.Sprintf("replicas %d -> %d", from, to)
	switch {
	case to == 0:
		return NeedsDecision, msg + ": pauses the cluster; every member stops until replicas is raised again"
	case from == 0:
		return NeedsDecision, msg + ": resumes a paused cluster"
	}
	msg += fmt.Sprintf(": quorum %d -> %d, tolerates %d -> %d failed members", from/2+1, to/2+1, (from-1)/2, (to-1)/2)
	switch {
	case (to-1)/2 < (from-1)/2 && to == 1:
		msg += "; the cluster loses fault tolerance: any failure of the single member stops the datastore"
	case (to-1)/2 < (from-1)/2:
		msg += "; the cluster loses fault tolerance"
	case to > from && (to-1)/2 == (from-1)/2:
		msg += "; the extra member adds no fault tolerance (an even count tolerates no more failures than one fewer)"
	}
	if to < from {
		msg += "; members are removed one membership change at a time: take a snapshot first"
	} else {
		msg += "; new members join one at a time, each copying the whole database"
	}
	return NeedsDecision, msg
}

// sizeChange refuses a shrinking volume and notes a growing one. A size
// is a quantity, spelled as a string ("10Gi") or a number (10737418240).
func sizeChange(live, desired any) (Verdict, string, bool) {
	lq, lok := asQuantity(live)
	dq, dok := asQuantity(desired)
	if !lok || !dok {
		return "", "", false
	}
	ls, ds := fmt.Sprint(live), fmt.Sprint(desired)
	switch dq.Cmp(lq) {
	case -1:
		return Refused, fmt.Sprintf("spec.storage.size cannot be shrunk (%s -> %s): PVCs cannot shrink", ls, ds), true
	case 1:
		return Note, fmt.Sprintf("the data volumes grow %s -> %s for the members etcd-operator creates from now on; whether it also expands "+
			"the running members' PVCs its CRD does not say (they keep the size they were created with unless it does), and an expansion needs a "+
			"StorageClass that allows it: check kubectl get pvc after the apply", ls, ds), true
	}
	return "", "", false
}

// quotaField is the EtcdCluster's backend quota, the members'
// --quota-backend-bytes.
const quotaField = "spec.options.quotaBackendBytes"

// quotaChange grades a change of the backend quota (the stacks derive it
// from the size, so a size change is one; so is a quota set by hand in
// the live spec that the render resets). etcd-operator gives spec.options
// to new members only, so the running members keep the live quota (etcd's
// 2 GiB default where the live spec has none) until each is replaced,
// while the defrag CronJob, rendered from the same values, gets the new
// quota at once (--etcd-storage-quota-bytes): its rule "dbQuotaUsage >
// 0.8" (etcd.DefragRule) then measures each running member against a
// quota it does not have. A larger new quota defragments too late: a
// member fills its real quota (etcd's NOSPACE alarm, every write stops)
// before the rule fires; that needs a decision. A smaller one defragments
// early, which costs only more defragmentations: a note, unless the
// members' quota exceeds the new volume (a member can fill its disk
// before the quota). The render is not changed to keep the CronJob on
// the live quota: the CronJob is the upstream chart's (parity), the plan
// is where the live quota is known, and the mix lasts only until the
// members are replaced.
func quotaChange(live, desired, size any) (Verdict, string, bool) {
	lq, lok := quotaBytes(live)
	dq, dok := quotaBytes(desired)
	if !lok || !dok || lq == dq {
		return "", "", false
	}
	had := strconv.FormatInt(lq, 10)
	if live == nil {
		had += " (etcd's default: the live spec sets none)"
	}
	msg := fmt.Sprintf("the backend quota changes %s -> %d bytes: etcd-operator gives spec.options only to the members it creates from now on, "+
		"so the running members keep --quota-backend-bytes=%s until each is replaced, while the defrag CronJob, rendered from the same values, "+
		"switches at once to --etcd-storage-quota-bytes=%d: its rule %q measures each running member against a quota it does not have",
		had, dq, strconv.FormatInt(lq, 10), dq, etcd.DefragRule)
	const replace = "; replace the members one at a time after the apply, each healthy before the next (a new member takes the new quota; " +
		"see docs/operator.md, \"What an EtcdCluster change does to the members\"), or keep the live size (and quota) until you can"
	if dq > lq {
		return NeedsDecision, msg + fmt.Sprintf(": it defragments too late (at 80%% of %d bytes, not of the members' %s), so a member can fill its real quota, "+
			"raise etcd's NOSPACE alarm and stop every write before the defrag runs", dq, strconv.FormatInt(lq, 10)) + replace, true
	}
	if sq, ok := asQuantity(size); ok && lq > sq.Value() {
		return NeedsDecision, msg + fmt.Sprintf(": it defragments earlier than needed, and the members' quota %s exceeds the volume (%s bytes): a member can fill its disk before etcd's quota stops it",
			strconv.FormatInt(lq, 10), strconv.FormatInt(sq.Value(), 10)) + replace, true
	}
	return Note, msg + ": it defragments earlier than the members need, which costs only more defragmentations" + replace, true
}

// quotaBytes is a quota as bytes: absent or 0 is etcd's default
// (etcd.EtcdDefaultQuotaBackendBytes, as the CRD says); a number or a
// quantity otherwise.
func quotaBytes(v any) (int64, bool) {
	if v == nil {
		return etcd.EtcdDefaultQuotaBackendBytes, true
	}
	q, ok := asQuantity(v)
	if !ok {
		return 0, false
	}
	if q.Value() == 0 {
		return etcd.EtcdDefaultQuotaBackendBytes, true
	}
	return q.Value(), true
}

// versionChange grades a change of spec.version by etcd's own upgrade
// and downgrade policy (etcd.VersionChange, which cites it): a patch
// change and a one-minor upgrade are notes; a one-minor upgrade from below
// the patch release etcd's guide requires (3.5.10 -> 3.6.11), a one-minor
// downgrade, a skipped minor version, a major change and a version that is
// not one need a decision, since the members etcd-operator creates with
// the new version join a cluster of the old one, which etcd supports for
// none of them. etcd-operator gives the version only to the members it
// creates from now on and rolls no running member (its docs/meet_v1alpha2.md:
// "spec.version applies only to newly created members"; EtcdMemberSpec
// copies the version at creation).
func versionChange(live, desired any) (Verdict, string) {
	ls, _ := live.(string)
	ds, _ := desired.(string)
	step, why := etcd.VersionChange(ls, ds)
	const rolls = "; etcd-operator gives the new version only to the members it creates from now on (a scale-up, a replacement) and does not roll the running ones, " +
		"so the cluster runs both versions until every member is replaced"
	switch step {
	case etcd.VersionPatch, etcd.VersionMinorUpgrade, etcd.VersionSame:
		return Note, why + rolls
	case etcd.VersionMinorDowngrade:
		return NeedsDecision, why + rolls + "; check that the downgrade is enabled first (or that etcd-operator enables it), and take a snapshot first"
	case etcd.VersionUnknown, etcd.VersionBelowMinimum:
		return NeedsDecision, why + rolls + "; take a snapshot first"
	default:
		return NeedsDecision, why + rolls + ": expect the first member created with it to fail to join, and a replaced member's place to stay empty; take a snapshot first"
	}
}

func usedBy(l *planObject) string {
	list, _ := valueAt(l.tree, dotted("status.usedBy")).([]any)
	if len(list) == 0 {
		return ""
	}
	names := make([]string, 0, len(list))
	for _, v := range list {
		names = append(names, fmt.Sprint(v))
	}
	return " (used by " + strings.Join(names, ", ") + ")"
}

// covers reports whether change c touches field: c is field or inside it,
// or c adds or removes a parent of field that holds it.
func covers(c FieldChange, field string, live, desired map[string]any) bool {
	if hasPathPrefix(c.Path, field) {
		return true
	}
	if hasPathPrefix(field, c.Path) {
		return valueAt(live, dotted(field)) != nil || valueAt(desired, dotted(field)) != nil
	}
	return false
}

func hasPathPrefix(path, prefix string) bool {
	return path == prefix || strings.HasPrefix(path, prefix+".") || strings.HasPrefix(path, prefix+"[")
}

// dotted is a path of field names, "spec.storage.size".
func dotted(p string) fieldpath.Path {
	parts := strings.Split(p, ".")
	out := make(fieldpath.Path, len(parts))
	for i := range parts {
		out[i] = fieldpath.PathElement{FieldName: &parts[i]}
	}
	return out
}

func dedupe(fs []Finding) []Finding {
	seen := map[string]bool{}
	out := fs[:0]
	for _, f := range fs {
		k := string(f.Verdict) + "\x00" + f.Path + "\x00" + f.Message
		if seen[k] {
			continue
		}
		seen[k] = true
		out = append(out, f)
	}
	return out
}
