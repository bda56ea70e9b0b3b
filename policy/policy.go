package policy

import (
	"github.com/etcdshapes/etcdshapes/manifest"
	"strconv"

	ciliumv2 "github.com/etcdshapes/etcdshapes/apis/cilium/v2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Cilium label keys the policy matches.
const (
	PodNamespaceKey    = "k8s:io.kubernetes.pod.namespace"
	SystemNamespaceKey = "k8s:io.cilium.k8s.namespace.labels.cozystack.io/system"
	SystemNamespace    = "kube-system"
)

// NetworkPolicy builds the per-cluster CiliumNetworkPolicy. Deny rules win
// over any allow in Cilium, so the etcd ports are closed to: pods that are
// neither members of this cluster nor labelled
// policy.cozystack.io/allow-to-etcd-cluster=<name>; and pods outside the
// tenant's namespace and kube-system, unless their namespace is a Cozystack
// system namespace (Kamaji runs there).
func NetworkPolicy(n naming.Names) (*ciliumv2.CiliumNetworkPolicy, error) {
	if err := n.Validate(); err != nil {
		return nil, err
	}
	ports := []ciliumv2.PortRule{{Ports: []ciliumv2.PortProtocol{
		{Port: strconv.Itoa(etcd.ClientPort), Protocol: "TCP"},
		{Port: strconv.Itoa(etcd.PeerPort), Protocol: "TCP"},
	}}}
	notIn := func(key string, values ...string) metav1.LabelSelectorRequirement {
		return metav1.LabelSelectorRequirement{Key: key, Operator: metav1.LabelSelectorOpNotIn, Values: values}
	}
	return &ciliumv2.CiliumNetworkPolicy{
		TypeMeta:   metav1.TypeMeta{APIVersion: ciliumv2.APIVersion, Kind: "CiliumNetworkPolicy"},
		ObjectMeta: metav1.ObjectMeta{Name: n.Cluster, Namespace: n.Namespace},
		Spec: &ciliumv2.Rule{
			EndpointSelector: &metav1.LabelSelector{MatchLabels: map[string]string{etcd.OperatorClusterKey: n.Cluster}},
			IngressDeny: []ciliumv2.IngressRule{
				{
					FromEndpoints: []metav1.LabelSelector{{MatchExpressions: []metav1.LabelSelectorRequirement{
						notIn(etcd.OperatorClusterKey, n.Cluster),
						notIn(etcd.AllowToEtcdClusterLabel, n.Cluster),
					}}},
					ToPorts: ports,
				},
				{
					FromEndpoints: []metav1.LabelSelector{{MatchExpressions: []metav1.LabelSelectorRequirement{
						notIn(PodNamespaceKey, n.Namespace, SystemNamespace),
						notIn(SystemNamespaceKey, "true"),
					}}},
					ToPorts: ports,
				},
			},
		},
	}, nil
}

// DashboardAccess is the etcd chart's read access for the dashboard.
type DashboardAccess struct {
	// Role reads the cluster's Service and WorkloadMonitor, by name
	// (naming.Names.DashboardResources).
	Role *rbacv1.Role
	// RoleBinding binds Role for every tenant on the path to the namespace
	// (naming.TenantPath): each tenant's ServiceAccount and its
	// "<tenant>-super-admin" group.
	RoleBinding *rbacv1.RoleBinding
}

// Objects lists the Role and the RoleBinding.
func (d DashboardAccess) Objects() []manifest.Object {
	return []manifest.Object{d.Role, d.RoleBinding}
}

// Dashboard builds the Role that reads the cluster's Service and
// WorkloadMonitor by name, bound for every tenant on the path to the
// namespace (naming.TenantPath): each tenant's ServiceAccount and its
// super-admin group.
func Dashboard(n naming.Names) (DashboardAccess, error) {
	if err := n.Validate(); err != nil {
		return DashboardAccess{}, err
	}
	tenants, err := naming.TenantPath(n.Namespace)
	if err != nil {
		return DashboardAccess{}, err
	}
	read := []string{"get", "list", "watch"}
	role := &rbacv1.Role{
		TypeMeta:   metav1.TypeMeta{APIVersion: etcd.RBACAPIVersion, Kind: "Role"},
		ObjectMeta: metav1.ObjectMeta{Name: n.DashboardResources(), Namespace: n.Namespace},
		Rules: []rbacv1.PolicyRule{
			{APIGroups: []string{""}, Resources: []string{"services"}, ResourceNames: []string{n.Cluster}, Verbs: read},
			{APIGroups: []string{"cozystack.io"}, Resources: []string{"workloadmonitors"}, ResourceNames: []string{n.Cluster}, Verbs: read},
		},
	}
	var subjects []rbacv1.Subject
	for _, t := range tenants {
		subjects = append(subjects,
			rbacv1.Subject{Kind: rbacv1.ServiceAccountKind, Name: t, Namespace: t},
			rbacv1.Subject{Kind: rbacv1.GroupKind, Name: t + "-super-admin", APIGroup: rbacv1.GroupName},
		)
	}
	binding := &rbacv1.RoleBinding{
		TypeMeta:   metav1.TypeMeta{APIVersion: etcd.RBACAPIVersion, Kind: "RoleBinding"},
		ObjectMeta: metav1.ObjectMeta{Name: n.DashboardResources(), Namespace: n.Namespace},
		Subjects:   subjects,
		RoleRef:    rbacv1.RoleRef{Kind: "Role", Name: n.DashboardResources(), APIGroup: rbacv1.GroupName},
	}
	return DashboardAccess{Role: role, RoleBinding: binding}, nil
}
