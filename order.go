package etcdshapes

import (
	"sort"
)

// installOrder is Helm's install order by kind (releaseutil.InstallOrder);
// kinds not listed come after, alphabetically.
var installOrder = []string{
	"PriorityClass", "Namespace", "NetworkPolicy", "ResourceQuota", "LimitRange",
	"PodSecurityPolicy", "PodDisruptionBudget", "ServiceAccount", "Secret",
	"SecretList", "ConfigMap", "StorageClass", "PersistentVolume",
	"PersistentVolumeClaim", "CustomResourceDefinition", "ClusterRole",
	"ClusterRoleList", "ClusterRoleBinding", "ClusterRoleBindingList", "Role",
	"RoleList", "RoleBinding", "RoleBindingList", "Service", "DaemonSet", "Pod",
	"ReplicationController", "ReplicaSet", "Deployment", "HorizontalPodAutoscaler",
	"StatefulSet", "Job", "CronJob", "IngressClass", "Ingress", "APIService",
	"MutatingWebhookConfiguration", "ValidatingWebhookConfiguration",
}

var kindRank = func() map[string]int {
	m := make(map[string]int, len(installOrder))
	for i, k := range installOrder {
		m[k] = i
	}
	return m
}()

// Sort orders objects as Helm prints a release: regular objects before
// hooks, each by Helm's install order of kinds (unknown kinds last,
// alphabetically), then by namespace and name.
func Sort(objs []Object) {
	sort.SliceStable(objs, func(i, j int) bool { return less(objs[i], objs[j]) })
}

func less(a, b Object) bool {
	if ha, hb := isHook(a), isHook(b); ha != hb {
		return hb
	}
	ka, kb := kindOf(a), kindOf(b)
	if ka != kb {
		ra, oka := kindRank[ka]
		rb, okb := kindRank[kb]
		switch {
		case oka && okb:
			return ra < rb
		case oka != okb:
			return oka
		default:
			return ka < kb
		}
	}
	if a.GetNamespace() != b.GetNamespace() {
		return a.GetNamespace() < b.GetNamespace()
	}
	return a.GetName() < b.GetName()
}

func kindOf(o Object) string { return o.GetObjectKind().GroupVersionKind().Kind }

func isHook(o Object) bool {
	_, ok := o.GetAnnotations()["helm.sh/hook"]
	return ok
}
