package plan_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"

	"github.com/etcdshapes/etcdshapes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Planning a change of a tenant cluster's etcd against the live objects
// (here the rendered stack itself, as `kubectl get -o yaml` would print
// it, with another TLS secret and 3 members): the desired single member
// is a decision, the TLS change is refused.
func ExampleForRequest() {
	req := etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}
	objs, _ := etcdshapes.Render(req)
	yaml, _ := etcdshapes.Marshal(objs)
	live, err := plan.ReadObjects([]byte(strings.Replace(string(yaml), "name: kubernetes-demo-etcd-server-tls", "name: old-server-tls", 1)))
	if err != nil {
		fmt.Println(err)
		return
	}

	req.Values = map[string]any{"etcd": map[string]any{"replicas": 1.0}}
	result, _, err := plan.ForRequest(req, live)
	if err != nil {
		fmt.Println(err)
		return
	}
	result.WriteText(os.Stdout)
	fmt.Println("safe:", result.SafeToApply())
	// Output:
	// Plan: 0 to create, 2 to update, 0 to delete, 10 unchanged.
	//
	// Field manager: etcdshapes, with force; apply with the same (kubectl apply --server-side --field-manager=etcdshapes --force-conflicts -f -).
	//
	// Ownership unknown: the live objects carry no managedFields (kubectl get --show-managed-fields prints them), so the plan
	// merges the desired objects into them: what an apply removes, leaves to other managers or conflicts on is not known.
	//
	// ~ update EtcdCluster tenant-demo/kubernetes-demo-etcd
	//     ~ spec.replicas: 3 -> 1
	//     ~ spec.tls.client.serverSecretRef: {"name":"old-server-tls"} -> {"name":"kubernetes-demo-etcd-server-tls"}
	//     REFUSED spec.tls.client.serverSecretRef: spec.tls is immutable post-create; delete and recreate the cluster to change TLS configuration
	//     DECISION spec.replicas: replicas 3 -> 1: quorum 2 -> 1, tolerates 1 -> 0 failed members; the cluster loses fault tolerance: any failure of the single member stops the datastore; members are removed one membership change at a time: take a snapshot first
	//
	// ~ update WorkloadMonitor tenant-demo/kubernetes-demo-etcd
	//     ~ spec.minReplicas: 2 -> 1
	//     ~ spec.replicas: 3 -> 1
	//
	// Not applied (Helm uninstall hooks): ServiceAccount tenant-demo/kubernetes-demo-etcd-cleanup, Role tenant-demo/kubernetes-demo-etcd-cleanup, RoleBinding tenant-demo/kubernetes-demo-etcd-cleanup, Job tenant-demo/kubernetes-demo-etcd-cleanup
	//
	// Not safe to apply: 1 refused by the API server, 1 need a decision, qualified: 12 live objects carry no managedFields (what the apply removes is not known).
	// safe: false
}

// An operator plans with the modifiers it applies with, so the plan is
// of what it sends: here the live stack is the one it applied before
// (owned by its resource and labelled), and the platform's CPU allocation
// ratio changes. The plan shows just that change, and the desired objects
// come back modified, to be applied as they are.
func ExampleForRequest_modifiers() {
	yes := true
	mods := []apply.Modifier{
		apply.WithOwnerReference(metav1.OwnerReference{APIVersion: "example.com/v1", Kind: "TenantEtcd", Name: "demo", UID: "6f1c", Controller: &yes}),
		apply.WithLabels(map[string]string{"app.kubernetes.io/managed-by": "tenant-etcd-operator"}),
	}
	req := etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}
	applied, _ := etcdshapes.Render(req)
	_ = apply.Modify(applied, mods...)
	yaml, _ := etcdshapes.Marshal(applied)
	live, _ := plan.ReadObjects(yaml)

	req.Values = map[string]any{"_cluster": map[string]any{"cpu-allocation-ratio": "5"}}
	result, desired, err := plan.ForRequest(req, live, mods...)
	if err != nil {
		fmt.Println(err)
		return
	}
	result.WriteText(os.Stdout)
	reqs, err := apply.Requests(desired)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range reqs {
		if k := r.Object.GetKind(); k == "EtcdCluster" || k == "DataStore" {
			fmt.Println(k, r.Object.GetLabels()["app.kubernetes.io/managed-by"], len(r.Object.GetOwnerReferences()))
		}
	}
	// Output:
	// Plan: 0 to create, 1 to update, 0 to delete, 11 unchanged.
	//
	// Field manager: etcdshapes, with force; apply with the same (kubectl apply --server-side --field-manager=etcdshapes --force-conflicts -f -).
	//
	// Ownership unknown: the live objects carry no managedFields (kubectl get --show-managed-fields prints them), so the plan
	// merges the desired objects into them: what an apply removes, leaves to other managers or conflicts on is not known.
	//
	// ~ update EtcdCluster tenant-demo/kubernetes-demo-etcd
	//     ~ spec.resources.requests.cpu: "100m" -> "200m"
	//     note spec.resources: etcd-operator gives the new resources (the etcd container's requests and limits) only to the members it creates from now on (a scale-up, a replacement): it does not roll the running members, which keep theirs until each is replaced
	//
	// Not applied (Helm uninstall hooks): ServiceAccount tenant-demo/kubernetes-demo-etcd-cleanup, Role tenant-demo/kubernetes-demo-etcd-cleanup, RoleBinding tenant-demo/kubernetes-demo-etcd-cleanup, Job tenant-demo/kubernetes-demo-etcd-cleanup
	//
	// Safe to apply, qualified: 12 live objects carry no managedFields (what the apply removes is not known).
	// DataStore tenant-etcd-operator 0
	// EtcdCluster tenant-etcd-operator 1
}

// An operator that applies as its own field manager plans as that
// manager, and applies with the same name: here the stack it applied
// before, unchanged, plans empty.
func ExampleAsFieldManager() {
	const manager = "my-operator"
	req := etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}
	live, err := etcdshapes.Render(req)
	if err != nil {
		fmt.Println(err)
		return
	}
	result, desired, err := plan.ForRequestWith(req, live, []plan.Option{plan.AsFieldManager(manager)})
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println("field manager:", result.FieldManager, "empty:", result.Empty())
	reqs, err := apply.Requests(desired)
	if err != nil {
		fmt.Println(err)
		return
	}
	// Send each request with the same name, e.g.
	// metav1.ApplyOptions{FieldManager: manager, Force: true}.
	fmt.Println(len(reqs), "requests, applied as", metav1.ApplyOptions{FieldManager: manager, Force: true}.FieldManager)
	// Output:
	// field manager: my-operator empty: true
	// 12 requests, applied as my-operator
}
