package etcdshapes

import (
	"strings"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/manifest"
)

// isHook reports whether o is a Helm hook of any event (Sort puts the
// hooks after the regular objects, as Helm prints a release).
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
