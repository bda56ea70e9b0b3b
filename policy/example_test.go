package policy_test

import (
	"fmt"

	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/policy"
)

func ExampleDashboard() {
	n, _ := naming.ForEtcdChart("tenant-abc", "etcd")
	d, _ := policy.Dashboard(n)
	for _, s := range d.RoleBinding.Subjects {
		fmt.Println(s.Kind, s.Name)
	}
	// Output:
	// ServiceAccount tenant-abc
	// Group tenant-abc-super-admin
	// ServiceAccount tenant-root
	// Group tenant-root-super-admin
}

func ExampleNetworkPolicy() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-demo")
	p, _ := policy.NetworkPolicy(n)
	for _, r := range p.Spec.IngressDeny {
		for _, e := range r.FromEndpoints[0].MatchExpressions {
			fmt.Println(e.Key, e.Operator, e.Values)
		}
	}
	// Output:
	// etcd-operator.cozystack.io/cluster NotIn [kubernetes-demo-etcd]
	// policy.cozystack.io/allow-to-etcd-cluster NotIn [kubernetes-demo-etcd]
	// k8s:io.kubernetes.pod.namespace NotIn [tenant-demo kube-system]
	// k8s:io.cilium.k8s.namespace.labels.cozystack.io/system NotIn [true]
}
