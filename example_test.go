package etcdshapes_test

import (
	"fmt"
	"os"

	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"k8s.io/apimachinery/pkg/api/resource"
)

// printKindsAndNames prints the kind and name of each object, or err.
func printKindsAndNames(objs []etcdshapes.Object, err error) {
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range objs {
		fmt.Println(o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
	}
}

// The etcd chart's stack for a tenant, on the chart's defaults except the
// volume size.
func ExampleEtcdChartStack() {
	objs, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{
		Namespace: "tenant-root",
		Etcd:      etcd.Options{Size: resource.MustParse("10Gi")},
	})
	printKindsAndNames(objs, err)
	// Output:
	// Role etcd-dashboard-resources
	// RoleBinding etcd-dashboard-resources
	// Service etcd-headless
	// CronJob etcd-defrag
	// Certificate etcd-ca
	// Certificate etcd-client
	// Certificate etcd-peer
	// Certificate etcd-peer-ca
	// Certificate etcd-server
	// DataStore tenant-root
	// EtcdCluster etcd
	// Issuer etcd-issuer
	// Issuer etcd-peer-issuer
	// Issuer etcd-selfsigning-issuer
	// PrometheusRule etcd-rules
	// VMPodScrape etcd-pod-scrape
	// VerticalPodAutoscaler etcd
	// WorkloadMonitor etcd
	// ServiceAccount etcd-cleanup
	// Secret etcd-ca-tls
	// Secret etcd-client-tls
	// Role etcd-cleanup
	// RoleBinding etcd-cleanup
	// Job etcd-cleanup
}

// A tenant cluster's etcd where only the VPA API is served, and the live
// EtcdCluster already has a storage class, which wins because it is
// immutable.
func ExampleClusterStack() {
	live := "replicated-ssd"
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{
		Namespace:         "tenant-demo",
		Release:           "kubernetes-demo",
		StorageClassLocal: "local",
		APIVersions:       []string{etcdshapes.APIVerticalPodAutoscaler},
		Live:              etcdshapes.LiveState{StorageClassName: &live},
	})
	printKindsAndNames(objs, err)
	// Output:
	// CronJob kubernetes-demo-etcd-defrag
	// Certificate kubernetes-demo-etcd-ca
	// Certificate kubernetes-demo-etcd-client
	// Certificate kubernetes-demo-etcd-peer
	// Certificate kubernetes-demo-etcd-peer-ca
	// Certificate kubernetes-demo-etcd-server
	// DataStore tenant-demo.kubernetes-demo
	// EtcdCluster kubernetes-demo-etcd
	// Issuer kubernetes-demo-etcd-issuer
	// Issuer kubernetes-demo-etcd-peer-issuer
	// Issuer kubernetes-demo-etcd-selfsigning-issuer
	// VerticalPodAutoscaler kubernetes-demo-etcd
	// WorkloadMonitor kubernetes-demo-etcd
	// ServiceAccount kubernetes-demo-etcd-cleanup
	// Role kubernetes-demo-etcd-cleanup
	// RoleBinding kubernetes-demo-etcd-cleanup
	// Job kubernetes-demo-etcd-cleanup
}

// What to apply with kubectl or a GitOps tool: the stack without its Helm
// uninstall hooks, whose cleanup Job deletes the TLS Secrets (and, for the
// etcd chart, the members' volumes) as soon as it is created. The etcd
// chart's pre-install Secrets stay: helm install creates them.
func ExampleWithoutUninstallHooks() {
	objs, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root"})
	if err != nil {
		fmt.Println(err)
		return
	}
	apply := etcdshapes.WithoutUninstallHooks(objs)
	fmt.Println(len(objs), "objects,", len(apply), "to apply")
	for _, o := range objs {
		if etcdshapes.IsUninstallHook(o) {
			fmt.Println("left out:", o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
		}
	}
	yamlBytes, err := etcdshapes.Marshal(apply)
	fmt.Println(len(yamlBytes) > 0, err)
	// Output:
	// 24 objects, 20 to apply
	// left out: ServiceAccount etcd-cleanup
	// left out: Role etcd-cleanup
	// left out: RoleBinding etcd-cleanup
	// left out: Job etcd-cleanup
	// true <nil>
}

// A tenant cluster whose live control plane uses another datastore stays
// there: nothing is rendered, so no datastore migration starts.
func ExampleClusterStack_sharedDataStore() {
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{
		Namespace: "tenant-demo",
		Release:   "kubernetes-demo",
		Live:      etcdshapes.LiveState{DataStoreName: "tenant-root"},
	})
	fmt.Println(len(objs), err)
	// Output: 0 <nil>
}

// Render reads a chart's values, as chart tooling and the CLI do; Marshal
// prints the objects.
func ExampleRender() {
	values, err := values.Merge([]byte("replicas: 1\nsize: 1Gi\n"))
	if err != nil {
		fmt.Println(err)
		return
	}
	objs, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-abc", Values: values})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().Kind == "WorkloadMonitor" {
			doc, _ := etcdshapes.MarshalObject(o)
			os.Stdout.Write(doc)
		}
	}
	// Output:
	// apiVersion: cozystack.io/v1alpha1
	// kind: WorkloadMonitor
	// metadata:
	//   name: etcd
	//   namespace: tenant-abc
	// spec:
	//   kind: etcd
	//   minReplicas: 1
	//   replicas: 1
	//   selector:
	//     app.kubernetes.io/instance: etcd
	//     app.kubernetes.io/managed-by: etcd-operator
	//     app.kubernetes.io/name: etcd
	//   type: etcd
	//   version: 0.0.0
}

// Bad input is refused with an error that names the field, the value and
// the rule.
func ExampleClusterStack_badReplicas() {
	_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", Replicas: 2})
	fmt.Println(err)
	// Output: Replicas: invalid value 2: must be 1 or 3
}
