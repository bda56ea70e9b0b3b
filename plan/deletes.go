package plan

import (
	"sort"
	"strings"

	"k8s.io/apimachinery/pkg/runtime/schema"
)

// An apply never deletes: server-side apply (kubectl apply
// --server-side, apply.Requests) creates and updates the objects it is
// sent and leaves every other object as it is. So a plan's deletes are
// not done by the apply the plan prints, and a plan that says "N to
// delete" must say how they are done: DeleteStep is one of them, as the
// kubectl command that does it, in an order that deletes what depends on
// an object before the object.

// DeleteStep is one delete a plan has, which applying does not do: run
// Command after the plan's decisions about it are made.
type DeleteStep struct {
	// Object is the live object the plan deletes.
	Object ObjectRef `json:"object"`
	// Command is the kubectl command that deletes it ("kubectl delete -n
	// NS certificate.cert-manager.io/NAME"), each word quoted for a POSIX
	// shell where it needs to be (ShellWord).
	Command string `json:"command"`
	// Holds, for an object that holds the stack's state or identity (the
	// EtcdCluster, the DataStore, the PKI, a Secret, a volume), says what
	// goes with it; empty for a stateless one.
	Holds string `json:"holds,omitempty"`
}

// deleteRank orders the deletes: what depends on an object before the
// object. The DataStore first (the tenant control planes reach the etcd
// through it; it names the etcd's endpoints and TLS Secrets); then what
// watches or acts on the members (the defrag CronJob, the monitors, the
// VPA, the network policy), the RBAC a CronJob runs as (RoleBinding, Role,
// ServiceAccount); then the EtcdCluster; then its PKI from the leaves to
// the root: the leaf Certificates, the CA Issuers that sign them, the CA
// Certificates whose Secrets those Issuers read, the self-signing Issuer
// that signs the CAs; Secrets and volumes last, as what the rest held.
func deleteRank(l *planObject) int {
	gk := l.key.groupKind()
	switch gk {
	case dataStoreKind:
		return 0
	case roleBindingKind:
		return 2
	case roleKind:
		return 3
	case serviceAcctKind:
		return 4
	case etcdClusterKind:
		return 5
	case certificateKind:
		if isCA, _ := valueAt(l.tree, dotted("spec.isCA")).(bool); isCA {
			return 8
		}
		return 6
	case issuerKind:
		if valueAt(l.tree, dotted("spec.ca")) != nil {
			return 7
		}
		return 9
	case secretKind, pvcKind:
		return 10
	}
	return 1
}

// deleteSteps are the plan's deletes in deleteRank's order (by name
// within a rank).
func deleteSteps(deletes []*planObject) []DeleteStep {
	sorted := append([]*planObject(nil), deletes...)
	sort.SliceStable(sorted, func(i, j int) bool {
		ri, rj := deleteRank(sorted[i]), deleteRank(sorted[j])
		if ri != rj {
			return ri < rj
		}
		return lessKey(sorted[i].key, sorted[j].key)
	})
	out := make([]DeleteStep, len(sorted))
	for i, l := range sorted {
		out[i] = DeleteStep{Object: l.ref, Command: deleteCommand(l.key.groupKind(), l.ref)}
		if what, stateful := holdsState(l); stateful {
			out[i].Holds = what
		}
	}
	return out
}

// deleteCommand is the kubectl delete of ref: its kind as kubectl names
// a resource, kind.group ("certificate.cert-manager.io", "cronjob.batch";
// a kind of the core group alone, "secret"): the lower-case kind is each
// kind's singular resource name, which kubectl resolves, and the group
// makes it one kind whatever else the cluster serves.
func deleteCommand(gk schema.GroupKind, ref ObjectRef) string {
	res := strings.ToLower(gk.Kind)
	if gk.Group != "" {
		res += "." + gk.Group
	}
	cmd := "kubectl delete"
	if ref.Namespace != "" {
		cmd += " -n " + ShellWord(ref.Namespace)
	}
	return cmd + " " + ShellWord(res+"/"+ref.Name)
}
