package etcdshapes_test

import (
	"fmt"
	"os"
	"strings"

	"github.com/etcdshapes/etcdshapes"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Planning a change of a tenant cluster's etcd against the live objects
// (here the rendered stack itself, as `kubectl get -o yaml` would print
// it, with another TLS secret and 3 members): the desired single member
// is a decision, the TLS change is refused.
func ExamplePlanRequest() {
	req := etcdshapes.Request{Caller: etcdshapes.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}
	objs, _ := etcdshapes.Render(req)
	yaml, _ := etcdshapes.Marshal(objs)
	live, err := etcdshapes.ReadObjects([]byte(strings.Replace(string(yaml), "name: kubernetes-demo-etcd-server-tls", "name: old-server-tls", 1)))
	if err != nil {
		fmt.Println(err)
		return
	}

	req.Values = map[string]any{"etcd": map[string]any{"replicas": 1.0}}
	plan, _, err := etcdshapes.PlanRequest(req, live)
	if err != nil {
		fmt.Println(err)
		return
	}
	plan.WriteText(os.Stdout)
	fmt.Println("safe:", plan.SafeToApply())
	// Output:
	// Plan: 0 to create, 2 to update, 0 to delete, 10 unchanged.
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
	// Not safe to apply: 1 refused by the API server, 1 need a decision.
	// safe: false
}

// An operator plans with the modifiers it applies with, so the plan is
// of what it sends: here the live stack is the one it applied before
// (owned by its resource and labelled), and the platform's CPU allocation
// ratio changes. The plan shows just that change, and the desired objects
// come back modified, to be applied as they are.
func ExamplePlanRequest_modifiers() {
	yes := true
	mods := []etcdshapes.Modifier{
		etcdshapes.WithOwnerReference(metav1.OwnerReference{APIVersion: "example.com/v1", Kind: "TenantEtcd", Name: "demo", UID: "6f1c", Controller: &yes}),
		etcdshapes.WithLabels(map[string]string{"app.kubernetes.io/managed-by": "tenant-etcd-operator"}),
	}
	req := etcdshapes.Request{Caller: etcdshapes.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo"}
	applied, _ := etcdshapes.Render(req)
	_ = etcdshapes.Modify(applied, mods...)
	yaml, _ := etcdshapes.Marshal(applied)
	live, _ := etcdshapes.ReadObjects(yaml)

	req.Values = map[string]any{"_cluster": map[string]any{"cpu-allocation-ratio": "5"}}
	plan, desired, err := etcdshapes.PlanRequest(req, live, mods...)
	if err != nil {
		fmt.Println(err)
		return
	}
	plan.WriteText(os.Stdout)
	reqs, err := etcdshapes.ApplyRequests(desired)
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
	// Ownership unknown: the live objects carry no managedFields (kubectl get --show-managed-fields prints them), so the plan
	// merges the desired objects into them: what an apply removes, leaves to other managers or conflicts on is not known.
	//
	// ~ update EtcdCluster tenant-demo/kubernetes-demo-etcd
	//     ~ spec.resources.requests.cpu: "100m" -> "200m"
	//     note spec.resources.requests.cpu: etcd-operator rolls every member, one at a time, to change resources
	//
	// Not applied (Helm uninstall hooks): ServiceAccount tenant-demo/kubernetes-demo-etcd-cleanup, Role tenant-demo/kubernetes-demo-etcd-cleanup, RoleBinding tenant-demo/kubernetes-demo-etcd-cleanup, Job tenant-demo/kubernetes-demo-etcd-cleanup
	//
	// Safe to apply.
	// DataStore tenant-etcd-operator 0
	// EtcdCluster tenant-etcd-operator 1
}

// Server-side apply requests for a stack, owned by the operator's own
// resource and labelled; the cleanup hooks are left out.
func ExampleApplyRequests() {
	objs, _ := etcdshapes.Cluster(etcdshapes.ClusterOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"})
	yes := true
	reqs, err := etcdshapes.ApplyRequests(objs,
		etcdshapes.WithOwnerReference(metav1.OwnerReference{APIVersion: "example.com/v1", Kind: "TenantEtcd", Name: "demo", UID: "6f1c", Controller: &yes}),
		etcdshapes.WithLabels(map[string]string{"app.kubernetes.io/managed-by": "tenant-etcd-operator"}),
	)
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, r := range reqs {
		fmt.Println(r.PatchType, r.Resource.Resource, r.Name, len(r.Object.GetOwnerReferences()))
	}
	fmt.Println("field manager:", etcdshapes.FieldManager)
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
