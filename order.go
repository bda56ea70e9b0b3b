package etcdshapes

import (
	"cmp"
	"github.com/etcdshapes/etcdshapes/manifest"
	"slices"
	"strings"

	"github.com/etcdshapes/etcdshapes/etcd"
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

func isHook(o Object) bool {
	_, ok := o.GetAnnotations()[etcd.HookAnnotation]
	return ok
}

// IsUninstallHook reports whether o is a Helm hook that never runs on
// install or upgrade (post-delete, pre-delete, rollback and test hooks):
// the cleanup hooks. It is the one rule of what is never applied:
// plan.Compute, apply.Requests, WithoutUninstallHooks and the CLI's render
// (without --include-hooks) leave these objects out, because creating the
// cleanup Job runs it at once, and it deletes the cluster's TLS Secrets
// (the CA's included) and, for the etcd chart, the members' data volumes.
// Objects that run on install (the etcd chart's pre-install Secrets) are
// not uninstall hooks: helm install creates them.
func IsUninstallHook(o Object) bool {
	if manifest.IsNil(o) {
		return false
	}
	hook, ok := o.GetAnnotations()[etcd.HookAnnotation]
	return ok && uninstallHook(hook)
}

// uninstallHook reports whether a helm.sh/hook annotation's value names no
// event of install or upgrade.
func uninstallHook(hook string) bool {
	for _, h := range strings.Split(hook, ",") {
		switch strings.TrimSpace(h) {
		case "pre-install", "post-install", "pre-upgrade", "post-upgrade":
			return false
		}
	}
	return true
}

// UninstallHook reports whether the shape's objects are Helm uninstall
// hooks (IsUninstallHook), from its Hook.
func (s Shape) UninstallHook() bool { return s.Hook != "" && uninstallHook(s.Hook) }

// WithoutUninstallHooks returns objs without the Helm uninstall hooks
// (IsUninstallHook), in their order, as a new slice (objs is not
// changed): what helm install creates, and so what may be applied with
// kubectl apply or a GitOps tool. The stacks return the hooks, and
// Marshal prints what it is given, so Marshal(WithoutUninstallHooks(objs))
// is the YAML to apply; Marshal(objs) is Helm's whole render, for golden
// comparisons and Helm-like diffs. Nil objects are kept (Marshal refuses
// them).
func WithoutUninstallHooks(objs []Object) []Object {
	out := make([]Object, 0, len(objs))
	for _, o := range objs {
		if !IsUninstallHook(o) {
			out = append(out, o)
		}
	}
	return out
}

// IsKept reports Helm's "keep" policy: the object outlives its release
// (the etcd chart's pre-install Secrets), so a plan never deletes it. A nil
// object (or a typed nil pointer) is not kept.
func IsKept(o Object) bool {
	if manifest.IsNil(o) {
		return false
	}
	return o.GetAnnotations()[etcd.ResourcePolicyAnnotation] == "keep"
}
