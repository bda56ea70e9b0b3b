package apply_test

import (
	"fmt"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apply"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Server-side apply requests for a stack, owned by the operator's own
// resource and labelled; the cleanup hooks are left out.
func ExampleRequests() {
	objs, _ := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"})
	yes := true
	reqs, err := apply.Requests(objs,
		apply.WithOwnerReference(metav1.OwnerReference{APIVersion: "example.com/v1", Kind: "TenantEtcd", Name: "demo", UID: "6f1c", Controller: &yes}),
		apply.WithLabels(map[string]string{"app.kubernetes.io/managed-by": "tenant-etcd-operator"}),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range reqs {
		fmt.Println(r.PatchType, r.Resource.Resource, r.Name, len(r.Object.GetOwnerReferences()))
	}
	fmt.Println("field manager:", apply.FieldManager)
	// Output:
	// application/apply-patch+yaml cronjobs kubernetes-demo-etcd-defrag 1
	// application/apply-patch+yaml certificates kubernetes-demo-etcd-ca 1
	// application/apply-patch+yaml certificates kubernetes-demo-etcd-client 1
	// application/apply-patch+yaml certificates kubernetes-demo-etcd-peer 1
	// application/apply-patch+yaml certificates kubernetes-demo-etcd-peer-ca 1
	// application/apply-patch+yaml certificates kubernetes-demo-etcd-server 1
	// application/apply-patch+yaml datastores tenant-demo.kubernetes-demo 0
	// application/apply-patch+yaml etcdclusters kubernetes-demo-etcd 1
	// application/apply-patch+yaml issuers kubernetes-demo-etcd-issuer 1
	// application/apply-patch+yaml issuers kubernetes-demo-etcd-peer-issuer 1
	// application/apply-patch+yaml issuers kubernetes-demo-etcd-selfsigning-issuer 1
	// application/apply-patch+yaml workloadmonitors kubernetes-demo-etcd 1
	// field manager: etcdshapes
}
