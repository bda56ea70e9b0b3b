package etcdshapes

import (
	"slices"

	grafanav1beta1 "github.com/etcdshapes/etcdshapes/apis/grafana/v1beta1"
	"github.com/etcdshapes/etcdshapes/naming"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
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
	// Every optional API but the dashboard's: its Grafana model is the
	// costliest object by far (several stacks' worth), and a scope needs
	// only its name.
	apis := slices.DeleteFunc(slices.Clone(optionalAPIs), func(a string) bool { return a == APIGrafanaDashboard })
	var objs []Object
	var err error
	if n.Caller == naming.CallerEtcd {
		objs, err = EtcdChartStack(EtcdChartStackOptions{Namespace: n.Namespace, Release: n.Release, APIVersions: apis})
	} else {
		objs, err = ClusterStack(ClusterStackOptions{Namespace: n.Namespace, Release: n.Release, APIVersions: apis})
	}
	if err != nil {
		return nil, err
	}
	objs = append(objs, &grafanav1beta1.GrafanaDashboard{
		TypeMeta:   metav1.TypeMeta{APIVersion: grafanav1beta1.APIVersion, Kind: "GrafanaDashboard"},
		ObjectMeta: metav1.ObjectMeta{Name: n.GrafanaDashboard(), Namespace: n.Namespace},
	})
	Sort(objs)
	out := make([]StackObject, 0, len(objs))
	for _, o := range objs {
		if IsUninstallHook(o) || IsKept(o) {
			continue
		}
		out = append(out, StackObject{Kind: o.GetObjectKind().GroupVersionKind(), Namespace: o.GetNamespace(), Name: o.GetName()})
	}
	return out, nil
}
