package plan

import (
	"fmt"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// Whether the stack is live, wholly, in part or not at all, is decided
// here once (stackLiveness), and every rule that asks reads the same
// answer: the partly live stack's creates (missingFindings), nothing live
// (Result.NothingLive), FreshInstall's live stack (notFresh) and
// ExpectExisting (Result.MissingCore). Two
// answers would disagree on some live file, and the file they disagree
// on is one that a plan calls safe while the apply changes a live etcd
// unseen: the tenant's KamajiControlPlane alone, or the etcd chart's two
// Secrets alone, once planned as a fresh install.

// The kinds that refer to a stack without being rendered by it.
var (
	// tenantControlPlaneKind is Kamaji's own control plane, whose
	// spec.dataStore names its DataStore.
	tenantControlPlaneKind = schema.GroupKind{Group: "kamaji.clastix.io", Kind: "TenantControlPlane"}
	// etcdSnapshotKind is etcd-operator's snapshot, whose
	// spec.clusterRef.name names its EtcdCluster.
	etcdSnapshotKind = schema.GroupKind{Group: "etcd-operator.cozystack.io", Kind: "EtcdSnapshot"}
	pvcKind          = schema.GroupKind{Kind: "PersistentVolumeClaim"}
	cronJobKind      = schema.GroupKind{Group: "batch", Kind: "CronJob"}
	serviceAcctKind  = schema.GroupKind{Kind: "ServiceAccount"}
	roleKind         = schema.GroupKind{Group: "rbac.authorization.k8s.io", Kind: "Role"}
)

// isCore reports the stack's stateful core: the EtcdCluster (the data)
// and the DataStore (what points the tenant control planes at it). A live
// file without them says nothing of what the apply does to the etcd.
func isCore(gk schema.GroupKind) bool { return gk == etcdClusterKind || gk == dataStoreKind }

// witness is a live object that proves the stack's etcd or DataStore
// exists, and how.
type witness struct {
	obj *planObject
	// why says how the object refers to the stack ("" for an object of
	// the stack itself), for the findings that name it.
	why string
}

// String is the object, and how it refers to the stack.
func (w witness) String() string {
	if w.why == "" {
		return w.obj.ref.String()
	}
	return w.obj.ref.String() + ": " + w.why
}

// liveness is stackLiveness's answer.
type liveness struct {
	// evidence are the live objects that prove the stack's etcd or
	// DataStore exists: the stack's own (rendered now or by some values
	// and APIs, its uninstall hooks and kept Secrets included: each
	// exists only where the stack was installed), and the objects that
	// refer to it by name (see refersTo), in the live objects' order.
	evidence []witness
	// related says that a live object of the stack proves nothing of its
	// etcd: the tenant cluster's KamajiControlPlane on another DataStore
	// (a cluster on a shared datastore, or leaving it), a DataStore of the
	// stack's name that points at another etcd (another release's: two
	// releases can render one DataStore name), each with how. Nothing is
	// live only without evidence and without these.
	related []witness
	// missingCore are the desired core objects (isCore) that the live
	// objects lack, in the desired order.
	missingCore []*planObject
}

// nothingLive: nothing of the stack, nothing that refers to it.
func (l liveness) nothingLive() bool { return len(l.evidence) == 0 && len(l.related) == 0 }

// partial: the stack is evidenced, and its core is not all there.
func (l liveness) partial() bool { return len(l.evidence) > 0 && len(l.missingCore) > 0 }

// stackLiveness reads the live objects against the desired ones (hooks
// included, desiredByKey), the stack's names (nil when the plan knows no
// stack), its scope (stackScope, nil without names) and the tenant
// cluster's KamajiControlPlane (kcp, nil for none).
func stackLiveness(live, desired []*planObject, desiredByKey map[objectKey]*planObject, liveByKey map[objectKey]*planObject,
	names *naming.Names, scope map[objectKey]bool, kcp *objectKey) (liveness, error) {
	var out liveness
	refs := newStackRefs(desired, names)
	for _, l := range live {
		if d := desiredByKey[l.key]; d != nil {
			if l.key.groupKind() == dataStoreKind && !sharesEndpoint(l.tree, d.tree) {
				// Another etcd's (collisionFindings).
				out.related = append(out.related, witness{obj: l, why: "a DataStore of the stack's name that points at another etcd"})
				continue
			}
			out.evidence = append(out.evidence, witness{obj: l})
			continue
		}
		if scope[l.key] {
			out.evidence = append(out.evidence, witness{obj: l})
			continue
		}
		why, err := refs.refersTo(l)
		if err != nil {
			return liveness{}, err
		}
		switch {
		case why != "":
			out.evidence = append(out.evidence, witness{obj: l, why: why})
		case kcp != nil && l.key == *kcp:
			out.related = append(out.related, witness{obj: l, why: "the tenant cluster's KamajiControlPlane"})
		}
	}
	for _, d := range desired {
		if isCore(d.key.groupKind()) && !etcdshapes.IsUninstallHook(d.obj) && liveByKey[d.key] == nil {
			out.missingCore = append(out.missingCore, d)
		}
	}
	return out, nil
}

// stackRefs are the names by which an object refers to a stack, made
// once per plan (a live file may hold thousands of unrelated objects).
type stackRefs struct {
	// dataStores are the DataStore names the stack's control planes name:
	// the desired ones, and the stack's own.
	dataStores []string
	// names are the stack's, nil when the plan knows no stack; the rest
	// are derived from them.
	names                                                *naming.Names
	tlsSecrets                                           []string
	client, schedule, check, cleanup, cleanupJob, defrag string
	// endpoint is the etcd's client endpoint, as a DataStore names it.
	endpoint string
}

func newStackRefs(desired []*planObject, names *naming.Names) stackRefs {
	var r stackRefs
	for _, d := range desired {
		if d.key.groupKind() == dataStoreKind {
			r.dataStores = append(r.dataStores, d.key.name)
		}
	}
	if names != nil {
		n := *names
		r.dataStores = append(r.dataStores, n.DataStore())
		r.names, r.tlsSecrets = names, n.TLSSecrets()
		r.client, r.schedule, r.check, r.cleanup, r.cleanupJob = n.ClientService(), n.SnapshotSchedule(), n.CheckJob(), n.Cleanup(), n.CleanupJob()
		r.defrag, r.endpoint = n.DefragCronJob(), n.ClientEndpoint()
	}
	return r
}

// Paths refersTo reads.
var (
	kcpDataStorePath  = dotted("spec.dataStoreName")
	tcpDataStorePath  = dotted("spec.dataStore")
	snapshotOfPath    = dotted("spec.clusterRef.name")
	metadataLabelPath = dotted("metadata.labels")
	ownerRefsPath     = dotted("metadata.ownerReferences")
	endpointsPath     = dotted("spec.endpoints")
)

// clusterLabels are the labels whose value names the EtcdCluster of the
// object that carries them: etcd-operator's on what it makes for the
// cluster (member Pods, PVCs, Services, the PodDisruptionBudget,
// EtcdMembers; the network policy selects the members by the second),
// and the defrag and snapshot Jobs' Pods' leave to reach the members.
var clusterLabels = []string{etcd.InstanceLabel, etcd.OperatorClusterKey, etcd.AllowToEtcdClusterLabel}

// refersTo says how a live object that is not the stack's own refers to
// the stack's etcd or DataStore, "" when it does not. Every kind that
// does, named by what names the stack (TestPartlyLiveStackIsNeverSafe
// holds each alone):
//
//   - a KamajiControlPlane (spec.dataStoreName) or a TenantControlPlane
//     (spec.dataStore), in any namespace, on one of the stack's
//     DataStores: a control plane runs on it;
//   - a DataStore of another name whose spec.endpoints name the etcd's
//     Service (<cluster>.<ns>.svc:2379);
//
// and in the stack's namespace, with the stack's names:
//
//   - a Secret of the stack's certificates (naming.Names.TLSSecrets:
//     cert-manager writes them, the CA's key included);
//   - a PersistentVolumeClaim of a member's data, data-<cluster>-<i>;
//   - an object labeled app.kubernetes.io/instance,
//     etcd-operator.cozystack.io/cluster or
//     policy.cozystack.io/allow-to-etcd-cluster: <cluster>
//     (clusterLabels: what etcd-operator creates for the cluster, member
//     Pods, PVCs, Services, the PodDisruptionBudget, EtcdMembers; the
//     scheduled EtcdSnapshots; the Pods of the defrag and snapshot Jobs),
//     or owned by the EtcdCluster or by the defrag or snapshot CronJob
//     (their Jobs);
//   - the Services etcd-operator names after the cluster, <cluster> (the
//     DataStore's endpoint) and <cluster>-client;
//   - an EtcdSnapshot of the cluster (spec.clusterRef.name);
//   - the snapshot schedule's CronJob, ServiceAccount, Role and
//     RoleBinding (naming.Names.SnapshotSchedule), the check Job
//     (naming.Names.CheckJob), and the stack's uninstall hooks
//     (naming.Names.Cleanup, CleanupJob) where the desired objects leave
//     them out.
func (r stackRefs) refersTo(l *planObject) (string, error) {
	gk := l.key.groupKind()
	switch gk {
	case kamajiControlPlaneKind, tenantControlPlaneKind:
		path, field := kcpDataStorePath, "spec.dataStoreName"
		if gk == tenantControlPlaneKind {
			path, field = tcpDataStorePath, "spec.dataStore"
		}
		// The field's type is checked (ruleFields) before it is read.
		if err := l.check(); err != nil {
			return "", err
		}
		if ds, _ := valueAt(l.tree, path).(string); ds != "" && containsString(r.dataStores, ds) {
			return fmt.Sprintf("its %s names the stack's DataStore %s, so a control plane runs on it", field, ds), nil
		}
		return "", nil
	case dataStoreKind:
		// Another DataStore (the stack's own is desired or in scope)
		// that points at the stack's etcd.
		if r.names != nil {
			eps, _ := valueAt(l.tree, endpointsPath).([]any)
			for _, e := range eps {
				if e == r.endpoint {
					return "its spec.endpoints name the etcd's Service " + r.endpoint, nil
				}
			}
		}
		return "", nil
	}
	if r.names == nil || l.key.namespace != r.names.Namespace {
		return "", nil
	}
	cluster, name := r.names.Cluster, l.key.name
	switch {
	case gk == secretKind && containsString(r.tlsSecrets, name):
		return "a TLS Secret of the stack's certificates", nil
	case gk == pvcKind && isDataPVC(cluster, name):
		return "a member's data volume", nil
	case gk == serviceKind && (name == cluster || name == r.client):
		return "a Service etcd-operator makes for EtcdCluster " + cluster, nil
	case gk == etcdSnapshotKind:
		if err := l.check(); err != nil {
			return "", err
		}
		if c, _ := valueAt(l.tree, snapshotOfPath).(string); c == cluster {
			return "a snapshot of EtcdCluster " + cluster, nil
		}
	case (gk == cronJobKind || gk == serviceAcctKind || gk == roleKind || gk == roleBindingKind) && name == r.schedule:
		return "the snapshot schedule of EtcdCluster " + cluster, nil
	case gk == jobKind && name == r.check:
		return "the performance check of EtcdCluster " + cluster, nil
	case (gk == serviceAcctKind || gk == roleKind || gk == roleBindingKind) && name == r.cleanup, gk == jobKind && name == r.cleanupJob:
		return "of the stack's uninstall hook", nil
	}
	if labels, _ := valueAt(l.tree, metadataLabelPath).(map[string]any); labels != nil {
		for _, k := range clusterLabels {
			if v, _ := labels[k].(string); v == cluster {
				return "labeled " + k + ": " + cluster, nil
			}
		}
	}
	owners, _ := valueAt(l.tree, ownerRefsPath).([]any)
	for _, o := range owners {
		ref, _ := o.(map[string]any)
		kind, _ := ref["kind"].(string)
		owner, _ := ref["name"].(string)
		if kind == "EtcdCluster" && owner == cluster || kind == "CronJob" && (owner == r.defrag || owner == r.schedule) {
			return "owned by " + kind + " " + owner, nil
		}
	}
	return "", nil
}

// isDataPVC reports data-<cluster>-<i>, the claim of member i.
func isDataPVC(cluster, name string) bool {
	i, ok := strings.CutPrefix(name, "data-"+cluster+"-")
	if !ok || i == "" {
		return false
	}
	for _, c := range i {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

func containsString(l []string, s string) bool {
	for _, e := range l {
		if e == s {
			return true
		}
	}
	return false
}

// evidenceList names the first n witnesses, "and N more" after them,
// separated by semicolons (a witness's how may hold commas).
func evidenceList(ws []witness, n int) string {
	names := make([]string, 0, n+1)
	for i, w := range ws {
		if i == n {
			names = append(names, fmt.Sprintf("and %d more", len(ws)-n))
			break
		}
		names = append(names, w.String())
	}
	return strings.Join(names, "; ")
}

// evidenceSeen is how a finding counts the evidence: "N live objects are
// of the stack or refer to it (...)".
func evidenceSeen(ws []witness) string {
	return fmt.Sprintf("%d live %s of the stack or %s to it (%s)", len(ws),
		plural(len(ws), "object is", "objects are"), plural(len(ws), "refers", "refer"), evidenceList(ws, 2))
}

// expectExistingFindings are ExpectExisting's: the stack is known to
// exist, so a plan whose live objects lack its core (missing) needs a
// decision, naming what to fetch. Nothing live has its own finding
// (nothingLive).
func expectExistingFindings(lv liveness) []Finding {
	if lv.nothingLive() || len(lv.missingCore) == 0 {
		return nil
	}
	what := make([]string, len(lv.missingCore))
	fetch := make([]string, len(lv.missingCore))
	for i, d := range lv.missingCore {
		what[i] = d.ref.String()
		fetch[i] = fetchCommand(d.ref)
	}
	seen := "nothing live proves the stack's etcd (only objects of the stack that prove nothing of it)"
	if len(lv.evidence) > 0 {
		seen = evidenceSeen(lv.evidence)
	}
	return []Finding{{Verdict: NeedsDecision, Message: "the live file is partial: the stack is expected to exist (--expect-existing, plan.ExpectExisting), " +
		"yet the live objects lack its " + strings.Join(what, " and ") + "; " + seen + ". " +
		"Fetch " + plural(len(what), "it", "them") + " (" + strings.Join(fetch, "; ") + ") into the live file and plan again"}}
}
