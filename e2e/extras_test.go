//go:build apiserver

package e2e

import (
	"context"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// TestExtrasAccepted creates the objects of the builders beyond the stacks
// with server-side dry-run and strict field validation, as typed objects
// and as printed YAML (see TestGoldenObjectsAccepted), counted in the
// closing line, for every stack of the golden scenarios:
//
//   - the prometheus-operator PodMonitor (its CRD from prometheus-operator
//     v0.87.0);
//   - the GrafanaDashboard (grafana-operator v5.24.0's CRD) with the
//     default options and with every option set;
//   - the performance check Job at the smallest load, with datascale at
//     "m", and at the largest load the default quota takes ("xl"). It
//     needs no RBAC, so there is none to create.
func TestExtrasAccepted(t *testing.T) {
	inEachStack(t, func(ctx context.Context, t *testing.T, n naming.Names) {
		for _, o := range extras(t, n) {
			createBoth(ctx, t, o)
		}
	})
}

// extras are the objects of the builders beyond the stacks for n.
func extras(t *testing.T, n naming.Names) []etcdshapes.Object {
	t.Helper()
	var objs []etcdshapes.Object
	add := func(o etcdshapes.Object, err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, o)
	}
	add(monitoring.PodMonitor(n))
	add(monitoring.Dashboard(n, monitoring.DashboardOptions{}))
	add(monitoring.Dashboard(n, monitoring.DashboardOptions{
		InstanceSelector: &metav1.LabelSelector{
			MatchLabels:      map[string]string{"dashboards": n.Namespace},
			MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "tier", Operator: metav1.LabelSelectorOpNotIn, Values: []string{"test"}}},
		},
		AllowCrossNamespaceImport: true,
		Folder:                    "etcd / " + n.Namespace,
		Replicas:                  5,
	}))
	for _, c := range []etcd.CheckOptions{{}, {Load: "m", Datascale: true}, {Load: "xl"}} {
		add(etcd.CheckJob(n, etcd.Options{}, c))
	}
	return objs
}

// restrictedNamespace enforces Pod Security "restricted" on Pods.
const restrictedNamespace = "tenant-restricted"

// TestCheckPodRestricted creates the check Job's pods, as the Job
// controller would, with server-side dry-run in a namespace that enforces
// Pod Security "restricted" (the API server's PodSecurity admission), for
// each check variant and each caller's labels; and shows the enforcement
// works: the same pod without its security context is refused.
func TestCheckPodRestricted(t *testing.T) {
	ctx := context.Background()
	ns := &corev1.Namespace{ObjectMeta: metav1.ObjectMeta{Name: restrictedNamespace, Labels: map[string]string{
		"pod-security.kubernetes.io/enforce":         "restricted",
		"pod-security.kubernetes.io/enforce-version": "latest",
	}}}
	if err := k.Create(ctx, ns); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	// The ServiceAccount admission needs the namespace's default
	// ServiceAccount, which no controller-manager creates here.
	sa := &corev1.ServiceAccount{ObjectMeta: metav1.ObjectMeta{Name: "default", Namespace: restrictedNamespace}}
	if err := k.Create(ctx, sa); err != nil && !apierrors.IsAlreadyExists(err) {
		t.Fatal(err)
	}
	chart, err := naming.ForEtcdChart(restrictedNamespace, "etcd")
	if err != nil {
		t.Fatal(err)
	}
	cluster, err := naming.ForCluster(restrictedNamespace, "kubernetes-restricted")
	if err != nil {
		t.Fatal(err)
	}
	accepted := 0
	for _, n := range []naming.Names{chart, cluster} {
		for _, c := range []etcd.CheckOptions{{}, {Load: "m", Datascale: true}} {
			j, err := etcd.CheckJob(n, etcd.Options{}, c)
			if err != nil {
				t.Fatal(err)
			}
			pod := &corev1.Pod{
				ObjectMeta: *j.Spec.Template.ObjectMeta.DeepCopy(),
				Spec:       *j.Spec.Template.Spec.DeepCopy(),
			}
			pod.Name, pod.Namespace = j.Name+"-abcde", j.Namespace
			if err := k.Create(ctx, pod, client.DryRunAll, strict); err != nil {
				t.Errorf("REJECTED the pod of %s: %s", describe(j), oneLine(err))
				count(false)
				continue
			}
			count(true)
			accepted++

			spoiled := pod.DeepCopy()
			spoiled.Spec.SecurityContext = nil
			for i := range spoiled.Spec.InitContainers {
				spoiled.Spec.InitContainers[i].SecurityContext = nil
			}
			for i := range spoiled.Spec.Containers {
				spoiled.Spec.Containers[i].SecurityContext = nil
			}
			if err := k.Create(ctx, spoiled, client.DryRunAll, strict); err == nil {
				t.Errorf("the pod of %s without its security context was accepted: Pod Security is not enforced", describe(j))
			} else if !apierrors.IsForbidden(err) {
				t.Errorf("the pod of %s without its security context: %s (want Forbidden by PodSecurity)", describe(j), oneLine(err))
			}
		}
	}
	summaries.add("check Job pods admitted under Pod Security \"restricted\" (enforced): %d", accepted)
}
