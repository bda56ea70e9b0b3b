package etcdshapes

import (
	"github.com/etcdshapes/etcdshapes/naming"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// StackObject is one object a stack may render: its kind, namespace and
// name (the namespace is empty for the cluster-scoped DataStore).
type StackObject struct {
	// Kind is the object's group, version and kind.
	Kind schema.GroupVersionKind
	// Namespace is the object's namespace; empty when cluster-scoped.
	Namespace string
	// Name is the object's name.
	Name string
}

// Scope lists every object the stack that n names can render, with every
// optional API served: what belongs to the release, and so what an
// operator reads from the live cluster and what a plan may delete. Helm
// uninstall hooks (never applied) and "keep" objects (which outlive the
// release) are left out. The list is in Sort's order and depends on the
// names only, never on values.
func Scope(n naming.Names) ([]StackObject, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	var objs []Object
	var err error
	if n.Caller == naming.EtcdChart {
		objs, err = EtcdChart(EtcdChartOptions{Namespace: n.Namespace, Release: n.Release, APIVersions: optionalAPIs})
	} else {
		objs, err = Cluster(ClusterOptions{Namespace: n.Namespace, Release: n.Release, APIVersions: optionalAPIs})
	}
	if err != nil {
		return nil, err
	}
	out := make([]StackObject, 0, len(objs))
	for _, o := range objs {
		if IsUninstallHook(o) || IsKept(o) {
			continue
		}
		out = append(out, StackObject{Kind: o.GetObjectKind().GroupVersionKind(), Namespace: o.GetNamespace(), Name: o.GetName()})
	}
	return out, nil
}
