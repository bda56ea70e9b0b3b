package etcd

import (
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/manifest"

	"github.com/etcdshapes/etcdshapes/naming"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// Helm's annotations on the objects of the stacks: hooks, and the keep
// policy of the etcd chart's secrets. Every package reads them from here.
const (
	HookAnnotation             = "helm.sh/hook"
	HookWeightAnnotation       = "helm.sh/hook-weight"
	HookDeletePolicyAnnotation = "helm.sh/hook-delete-policy"
	ResourcePolicyAnnotation   = "helm.sh/resource-policy"

	hookPostDelete   = "post-delete"
	hookDeletePolicy = "before-hook-creation,hook-succeeded"

	// CleanupImage runs kubectl in the cleanup Job.
	CleanupImage = "docker.io/clastix/kubectl:v1.32"
	// AllowToAPIServerLabel opens the tenant's network policy to the API
	// server for a pod.
	AllowToAPIServerLabel = "policy.cozystack.io/allow-to-apiserver"

	nobody = int64(65534)
)

// RBACAPIVersion is the apiVersion of the Roles and RoleBindings of every
// builder, computed once rather than per object.
var RBACAPIVersion = rbacv1.SchemeGroupVersion.String()

// CleanupHook is the post-delete hook that deletes what an uninstall leaves
// behind: the five PKI Secrets (cert-manager sets no owner on them, and two
// are "keep" secrets) and, for the etcd chart, the legacy data PVCs
// data-<name>-<i>, which etcd-operator does not garbage-collect. The Role
// grants get and delete on exactly those names and nothing else.
type CleanupHook struct {
	// ServiceAccount is the identity the Job runs as (hook weight 0).
	ServiceAccount *corev1.ServiceAccount
	// Role grants get and delete on the leftover Secrets and PVCs, by name
	// (hook weight 5).
	Role *rbacv1.Role
	// RoleBinding binds Role to ServiceAccount (hook weight 5).
	RoleBinding *rbacv1.RoleBinding
	// Job deletes the leftovers with kubectl (hook weight 10), named
	// naming.Names.CleanupJob.
	Job *batchv1.Job
}

// Objects lists the hook's objects in creation order (by hook weight).
func (h CleanupHook) Objects() []manifest.Object {
	return []manifest.Object{h.ServiceAccount, h.Role, h.RoleBinding, h.Job}
}

// Cleanup builds the post-delete cleanup hook. replicas is the member count
// whose PVCs the etcd chart's hook deletes (0 means DefaultReplicas); the
// per-cluster hook deletes Secrets only. Bad names and a bad replicas are
// both refused (see invalid.List).
func Cleanup(n naming.Names, replicas int32) (CleanupHook, error) {
	var c invalid.Collector
	c.Add(n.Validate())
	replicas = ReplicasOrDefault(replicas)
	if replicas < 1 || replicas > MaxReplicas {
		c.Addf("replicas", replicas, "must be between 1 and %d", MaxReplicas)
	}
	if err := c.Err(); err != nil {
		return CleanupHook{}, err
	}
	return cleanup(n, replicas)
}

func hookMeta(name, namespace, weight string, labels map[string]string) metav1.ObjectMeta {
	return metav1.ObjectMeta{
		Name:      name,
		Namespace: namespace,
		Labels:    labels,
		Annotations: map[string]string{
			HookAnnotation:             hookPostDelete,
			HookWeightAnnotation:       weight,
			HookDeletePolicyAnnotation: hookDeletePolicy,
		},
	}
}

func cleanup(n naming.Names, replicas int32) (CleanupHook, error) {
	etcdChart := n.Caller == naming.CallerEtcd
	var labels map[string]string
	if etcdChart {
		labels = map[string]string{InstanceLabel: n.Cluster}
	}
	secrets := n.TLSSecrets()
	var pvcs []string
	if etcdChart {
		for i := 0; i < int(replicas); i++ {
			pvc, err := n.DataPVC(i)
			if err != nil {
				return CleanupHook{}, err
			}
			pvcs = append(pvcs, pvc)
		}
	}

	var rules []rbacv1.PolicyRule
	if len(pvcs) > 0 {
		rules = append(rules, rbacv1.PolicyRule{
			APIGroups: []string{""}, Resources: []string{"persistentvolumeclaims"},
			Verbs: []string{"get", "delete"}, ResourceNames: pvcs,
		})
	}
	rules = append(rules, rbacv1.PolicyRule{
		APIGroups: []string{""}, Resources: []string{"secrets"},
		Verbs: []string{"get", "delete"}, ResourceNames: secrets,
	})

	podLabels := map[string]string{AllowToAPIServerLabel: "true"}
	var command []string
	if etcdChart {
		podLabels[InstanceLabel] = n.Cluster
		command = []string{"/bin/sh", "-c", etcdChartCleanupScript(n, pvcs, secrets)}
	} else {
		command = append([]string{"kubectl", "--namespace=" + n.Namespace, "delete", "secret", "--ignore-not-found", "--wait=false"}, secrets...)
	}

	return CleanupHook{
		ServiceAccount: &corev1.ServiceAccount{
			TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ServiceAccount"},
			ObjectMeta: hookMeta(n.Cleanup(), n.Namespace, "0", labels),
		},
		Role: &rbacv1.Role{
			TypeMeta:   metav1.TypeMeta{APIVersion: RBACAPIVersion, Kind: "Role"},
			ObjectMeta: hookMeta(n.Cleanup(), n.Namespace, "5", labels),
			Rules:      rules,
		},
		RoleBinding: &rbacv1.RoleBinding{
			TypeMeta:   metav1.TypeMeta{APIVersion: RBACAPIVersion, Kind: "RoleBinding"},
			ObjectMeta: hookMeta(n.Cleanup(), n.Namespace, "5", labels),
			RoleRef:    rbacv1.RoleRef{APIGroup: rbacv1.GroupName, Kind: "Role", Name: n.Cleanup()},
			Subjects:   []rbacv1.Subject{{Kind: rbacv1.ServiceAccountKind, Name: n.Cleanup(), Namespace: n.Namespace}},
		},
		Job: &batchv1.Job{
			TypeMeta:   metav1.TypeMeta{APIVersion: "batch/v1", Kind: "Job"},
			ObjectMeta: hookMeta(n.CleanupJob(), n.Namespace, "10", labels),
			Spec: batchv1.JobSpec{
				BackoffLimit:          ptr(int32(3)),
				ActiveDeadlineSeconds: ptr(int64(120)),
				Template: corev1.PodTemplateSpec{
					ObjectMeta: metav1.ObjectMeta{Labels: podLabels},
					// The etcd chart's pod also sets fsGroup.
					Spec: kubectlPodSpec(n.Cleanup(), "cleanup", command, nil, etcdChart),
				},
			},
		},
	}, nil
}

// etcdChartCleanupScript is the etcd chart's cleanup script: both deletions
// are best effort so that a failure cannot wedge the uninstall.
func etcdChartCleanupScript(n naming.Names, pvcs, secrets []string) string {
	name, ns := n.Cluster, n.Namespace
	var b strings.Builder
	// The script is about 1.2 KB of text plus the names; one allocation.
	b.Grow(1400 + 16*len(name) + 2*len(ns) + 32*len(pvcs) + 64*len(secrets))
	w := func(s ...string) {
		for _, p := range s {
			b.WriteString(p)
		}
		b.WriteByte('\n')
	}
	w(`# The EtcdCluster is named "`, name, `" (check-release-name pins the`)
	w(`# release name to "`, n.Release, `"), so its StatefulSet volumeClaimTemplate`)
	w(`# PVCs are named data-`, name, `-<ordinal>, one per replica. The`)
	w(`# etcd-operator does not garbage-collect them on EtcdCluster`)
	w(`# deletion, so we delete them here by name (safe: no sibling`)
	w(`# workload shares the data-`, name, `-* prefix in a tenant namespace).`)
	w(`echo "Deleting orphaned etcd data PVCs for `, name, `..."`)
	w(`kubectl delete pvc -n `, ns, ` `, strings.Join(pvcs, " "), ` --ignore-not-found --wait=false \`)
	w(`  || echo "WARNING: etcd PVC cleanup failed for `, name, `; orphaned PVCs may remain" >&2`)
	w(`# `, n.CASecret(), ` / `, n.ClientSecret(), ` are pre-install "keep" secrets`)
	w(`# this chart owns; `, n.PeerCASecret(), ` / `, n.ServerSecret(), ` /`)
	w(`# `, n.PeerSecret(), ` are cert-manager-issued secrets with no owner`)
	w(`# reference. None are reclaimed by the uninstall, so delete them`)
	w(`# by name.`)
	w(`echo "Deleting orphaned etcd TLS secrets for `, name, `..."`)
	w(`kubectl delete secret -n `, ns, ` `, strings.Join(secrets, " "), ` --ignore-not-found --wait=false \`)
	w(`  || echo "WARNING: etcd secret cleanup failed for `, name, `; orphaned secrets may remain" >&2`)
	w(`echo "`, name, ` cleanup complete."`)
	return b.String()
}
