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
	keys := make([]sortKey, len(objs))
	for i, o := range objs {
		keys[i] = keyOf(o)
	}
	idx := make([]int, len(objs))
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(i, j int) bool { return keys[idx[i]].less(keys[idx[j]]) })
	sorted := make([]Object, len(objs))
	for i, k := range idx {
		sorted[i] = objs[k]
	}
	copy(objs, sorted)
}

// sortKey is computed once per object: reading a kind parses the apiVersion.
type sortKey struct {
	hook           bool
	rank           int
	kind, ns, name string
}

func keyOf(o Object) sortKey {
	k := sortKey{hook: isHook(o), kind: kindOf(o), ns: o.GetNamespace(), name: o.GetName()}
	if r, ok := kindRank[k.kind]; ok {
		k.rank = r
	} else {
		k.rank = len(installOrder)
	}
	return k
}

func (a sortKey) less(b sortKey) bool {
	switch {
	case a.hook != b.hook:
		return b.hook
	case a.rank != b.rank:
		return a.rank < b.rank
	case a.kind != b.kind:
		return a.kind < b.kind
	case a.ns != b.ns:
		return a.ns < b.ns
	}
	return a.name < b.name
}

func kindOf(o Object) string { return o.GetObjectKind().GroupVersionKind().Kind }

func isHook(o Object) bool {
	_, ok := o.GetAnnotations()["helm.sh/hook"]
	return ok
}
