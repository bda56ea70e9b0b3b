package etcdshapes

import (
	"cmp"
	"slices"
	"strings"

	"github.com/etcdshapes/etcdshapes/manifest"
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
// alphabetically), then by namespace and name. Nil objects (and typed nil
// pointers) go last, in their order; Marshal refuses them.
func Sort(objs []Object) {
	keyed := make([]keyedObject, len(objs))
	for i, o := range objs {
		keyed[i] = keyedObject{keyOf(o), o}
	}
	slices.SortStableFunc(keyed, func(a, b keyedObject) int { return a.key.compare(b.key) })
	for i, k := range keyed {
		objs[i] = k.obj
	}
}

type keyedObject struct {
	key sortKey
	obj Object
}

// sortKey is computed once per object: reading a kind parses the apiVersion.
type sortKey struct {
	null           bool
	hook           bool
	rank           int
	kind, ns, name string
}

func keyOf(o Object) sortKey {
	if manifest.IsNil(o) {
		return sortKey{null: true}
	}
	k := sortKey{hook: isHook(o), kind: kindOf(o), ns: o.GetNamespace(), name: o.GetName()}
	if r, ok := kindRank[k.kind]; ok {
		k.rank = r
	} else {
		k.rank = len(installOrder)
	}
	return k
}

func (a sortKey) compare(b sortKey) int {
	switch {
	case a.null || b.null:
		// Nil objects last; stable among themselves.
		switch {
		case a.null == b.null:
			return 0
		case a.null:
			return 1
		}
		return -1
	case a.hook != b.hook:
		if a.hook {
			return 1
		}
		return -1
	case a.rank != b.rank:
		return cmp.Compare(a.rank, b.rank)
	case a.kind != b.kind:
		return strings.Compare(a.kind, b.kind)
	case a.ns != b.ns:
		return strings.Compare(a.ns, b.ns)
	}
	return strings.Compare(a.name, b.name)
}

func kindOf(o Object) string { return o.GetObjectKind().GroupVersionKind().Kind }
