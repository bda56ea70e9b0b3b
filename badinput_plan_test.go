package etcdshapes_test

import (
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"

	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/types"
)

// stackObject is the object of kind and name in the demo tenant cluster's
// render (nil when none).
func stackObject(kind, name string) etcdshapes.Object {
	objs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"})
	if err != nil {
		return nil
	}
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().Kind == kind && o.GetName() == name {
			return o
		}
	}
	return nil
}

// applyBadInputs are the inputs of what the plan and the apply take besides
// live objects: the modifiers (one that would change what is applied, a
// nil one), the plan's options, and the etcd chart's live state.
func applyBadInputs() []badInput {
	stripHook := func(o etcdshapes.Object) error {
		a := map[string]string{}
		for k, v := range o.GetAnnotations() {
			if k != "helm.sh/hook" {
				a[k] = v
			}
		}
		o.SetAnnotations(a)
		return nil
	}
	ownedBy := func(ref metav1.OwnerReference) func() error {
		return func() error {
			_, err := apply.Modified([]etcdshapes.Object{stackObject("Job", "kubernetes-demo-etcd-cleanup")}, apply.WithOwnerReference(ref))
			return err
		}
	}
	return []badInput{
		// An owner no object can be: the garbage collector deletes what
		// only it owns.
		{"owner reference UID longer than a UUID", ownedBy(metav1.OwnerReference{APIVersion: "example.com/v1", Kind: "Tenant", Name: "demo", UID: types.UID(strings.Repeat("0", 37))}),
			"ownerReference.uid", strings.Repeat("0", 37), "at most 36 characters"},
		{"owner reference name no object has", ownedBy(metav1.OwnerReference{APIVersion: "example.com/v1", Kind: "Tenant", Name: strings.Repeat("n", 254), UID: "u"}),
			"ownerReference.name", strings.Repeat("n", 254), "DNS-1123 subdomain"},
		{"modifier removes an uninstall hook's helm.sh/hook", func() error {
			_, err := apply.Modified([]etcdshapes.Object{stackObject("Job", "kubernetes-demo-etcd-cleanup")}, stripHook)
			return err
		}, "objects[0].metadata.annotations.helm.sh/hook", nil, "modifiers[0] must not change Job \"kubernetes-demo-etcd-cleanup\"'s helm.sh/hook annotation: it is a Helm uninstall hook"},
		{"modifier makes the EtcdCluster an uninstall hook", func() error {
			_, err := apply.Requests([]etcdshapes.Object{stackObject("EtcdCluster", "kubernetes-demo-etcd")}, apply.WithLabels(map[string]string{"a": "b"}), apply.WithAnnotations(map[string]string{"helm.sh/hook": "pre-delete"}))
			return err
		}, "objects[0].metadata.annotations.helm.sh/hook", "pre-delete", "modifiers[1] must not make EtcdCluster \"kubernetes-demo-etcd\" a Helm uninstall hook"},
		{"modifier nil", func() error {
			_, err := apply.Requests([]etcdshapes.Object{stackObject("EtcdCluster", "kubernetes-demo-etcd")}, apply.WithLabels(nil), nil)
			return err
		}, "modifiers[1]", nil, "must be a modifier, not nil"},
		{"modifier nil (plan)", func() error {
			_, _, err := plan.ForRequest(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}, nil, nil)
			return err
		}, "modifiers[0]", nil, "must be a modifier, not nil"},
		{"ForKind edit nil", func() error {
			_, err := apply.Modified([]etcdshapes.Object{stackObject("EtcdCluster", "kubernetes-demo-etcd")}, apply.ForKind[etcdshapes.Object](nil))
			return err
		}, "ForKind", nil, "needs an edit"},
		{"plan option nil", func() error { _, err := plan.Compute(nil, nil, plan.TargetDataStore("x"), nil); return err }, "opts[1]", nil, "not nil"},
		{"etcd chart live datastore", func() error {
			_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Live: etcdshapes.LiveState{DataStoreName: "tenant-root"}})
			return err
		}, "Live.DataStoreName", "tenant-root", "must be empty: the etcd chart reads no live DataStore"},
		{"etcd chart live storage class", func() error {
			_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Live: etcdshapes.LiveState{StorageClassName: ptr("fast")}})
			return err
		}, "Live.StorageClassName", "fast", "must be unset"},
	}
}
