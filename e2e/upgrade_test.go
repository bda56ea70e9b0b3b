//go:build apiserver

package e2e

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"

	"github.com/etcdshapes/etcdshapes"
	etcdv1alpha2 "github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/golden"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"sigs.k8s.io/controller-runtime/pkg/client"
	"sigs.k8s.io/controller-runtime/pkg/client/apiutil"
)

// Storage class names no golden scenario uses, so that a render which
// ignores the live state always changes the class.
const (
	upgradedLocal      = "upgraded-local"
	upgradedReplicated = "upgraded-replicated"
)

// upgradeValues lays the changed inputs of an upgrade over a scenario's
// values: the other replica count, other storage-class keys and new ratios.
func upgradeValues(s golden.Scenario, liveReplicas int32) (map[string]any, error) {
	replicas := 1
	if liveReplicas == 1 {
		replicas = 3
	}
	overlay := fmt.Sprintf(`
etcd:
  replicas: %d
_cluster:
  etcd-storage-class-local: %s
  etcd-storage-class-replicated: %s
  cpu-allocation-ratio: "5"
  memory-allocation-ratio: "2"
  ephemeral-storage-allocation-ratio: "20"
`, replicas, upgradedLocal, upgradedReplicated)
	return values.Merge([]byte(s.Values), []byte(overlay))
}

// TestClusterUpgradeWithLiveState installs each per-cluster stack for real,
// then upgrades it with changed inputs. Passing the live EtcdCluster's
// storage class (LiveState.StorageClassName) must make the update
// acceptable to the CRD's CEL rules; ignoring it must not, which shows that
// this test can fail.
func TestClusterUpgradeWithLiveState(t *testing.T) {
	ctx := context.Background()
	for _, s := range golden.All() {
		if s.Caller != naming.CallerCluster {
			continue
		}
		t.Run(s.Name, func(t *testing.T) {
			req, err := s.Request()
			if err != nil {
				t.Fatal(err)
			}
			objs, err := etcdshapes.Render(req)
			if err != nil {
				t.Fatalf("render: %v", err)
			}
			if len(objs) == 0 {
				t.Skip("renders no object (the cluster stays on a shared datastore)")
			}
			install(ctx, t, objs)

			live := &etcdv1alpha2.EtcdCluster{}
			key := client.ObjectKeyFromObject(findCluster(t, objs))
			if err := k.Get(ctx, key, live); err != nil {
				t.Fatalf("reading the live EtcdCluster: %v", err)
			}
			liveClass := ""
			if live.Spec.Storage != nil {
				liveClass = live.Spec.Storage.StorageClassName
			}
			liveReplicas := int32(3)
			if live.Spec.Replicas != nil {
				liveReplicas = *live.Spec.Replicas
			}

			// An upgrade that ignores the live state picks the class for
			// the new replica count: the server must refuse it.
			bypass := req
			if bypass.Values, err = upgradeValues(s, liveReplicas); err != nil {
				t.Fatal(err)
			}
			bypass.Live.StorageClassName = nil
			bypassObjs, err := etcdshapes.Render(bypass)
			if err != nil {
				t.Fatalf("render without live state: %v", err)
			}
			bc := findCluster(t, bypassObjs)
			if bc.Spec.Storage.StorageClassName == liveClass {
				t.Fatalf("without live state the class stays %q: the negative case proves nothing", liveClass)
			}
			err = update(ctx, bc)
			switch {
			case err == nil:
				t.Errorf("changing storageClassName %q → %q was accepted; the CRD's immutability rule did not fire", liveClass, bc.Spec.Storage.StorageClassName)
			case !apierrors.IsInvalid(err) || !strings.Contains(err.Error(), "spec.storage.storageClassName"):
				t.Errorf("changing storageClassName was refused for another reason: %s", oneLine(err))
			default:
				t.Logf("without live state (class %q → %q) rejected as expected: %s", liveClass, bc.Spec.Storage.StorageClassName, oneLine(err))
				countUpgrade(&tally.bypassRejected)
			}

			// The same upgrade with the live state keeps the class.
			up := req
			if up.Values, err = upgradeValues(s, liveReplicas); err != nil {
				t.Fatal(err)
			}
			up.Live.StorageClassName = &liveClass
			upObjs, err := etcdshapes.Render(up)
			if err != nil {
				t.Fatalf("render with live state: %v", err)
			}
			want := findCluster(t, upObjs).DeepCopy()
			failed := false
			for _, o := range upObjs {
				var err error
				if isHook(o) {
					// Helm never updates a hook: it deletes and recreates it
					// when the hook runs. Check that the new one would be
					// created.
					err = k.Create(ctx, o, client.DryRunAll, strict)
				} else {
					err = update(ctx, o)
				}
				if err != nil {
					failed = true
					t.Errorf("REJECTED upgrade of %s: %s", describe(o), oneLine(err))
				}
			}

			got := &etcdv1alpha2.EtcdCluster{}
			if err := k.Get(ctx, key, got); err != nil {
				t.Fatalf("reading the upgraded EtcdCluster: %v", err)
			}
			if got.Spec.Storage == nil || got.Spec.Storage.StorageClassName != liveClass {
				t.Errorf("storageClassName after upgrade: got %+v, want %q", got.Spec.Storage, liveClass)
			}
			if got.Spec.Replicas == nil || *got.Spec.Replicas != *want.Spec.Replicas || *got.Spec.Replicas == liveReplicas {
				t.Errorf("replicas after upgrade: got %v, want %d (was %d)", got.Spec.Replicas, *want.Spec.Replicas, liveReplicas)
			}
			if !equalResources(got, want) {
				t.Errorf("resources after upgrade: got %+v, want %+v", got.Spec.Resources, want.Spec.Resources)
			}
			if got.Generation <= live.Generation {
				t.Errorf("generation after upgrade: got %d, was %d: nothing changed", got.Generation, live.Generation)
			}
			if !failed {
				t.Logf("upgrade with live state accepted: replicas %d → %d, class kept %q, requests %s", liveReplicas, *got.Spec.Replicas, liveClass, formatList(requests(got)))
				countUpgrade(&tally.upgradeAccepted)
			}
		})
	}
}

func countUpgrade(n *int) {
	tally.Lock()
	defer tally.Unlock()
	*n++
}

// install creates the objects Helm installs (hooks excluded) for real, and
// deletes them when the test ends so that the next scenario, which uses
// the same names, starts from nothing.
func install(ctx context.Context, t *testing.T, objs []etcdshapes.Object) {
	t.Helper()
	var created []etcdshapes.Object
	t.Cleanup(func() {
		for _, o := range created {
			err := k.Delete(ctx, o, client.PropagationPolicy(metav1.DeletePropagationBackground))
			if err != nil && !apierrors.IsNotFound(err) {
				t.Errorf("deleting %s: %v", describe(o), err)
			}
		}
	})
	for _, o := range objs {
		if isHook(o) {
			continue
		}
		if err := ensureNamespace(ctx, o.GetNamespace()); err != nil {
			t.Fatal(err)
		}
		name := describe(o)
		if err := k.Create(ctx, o, strict); err != nil {
			t.Fatalf("REJECTED install of %s: %s", name, oneLine(err))
		}
		created = append(created, o)
	}
}

// update replaces the live object with o (a PUT carrying the live
// resourceVersion), or creates it when it does not exist.
func update(ctx context.Context, o etcdshapes.Object) error {
	gvk, err := apiutil.GVKForObject(o, scheme)
	if err != nil {
		return err
	}
	live := &metav1.PartialObjectMetadata{}
	live.SetGroupVersionKind(gvk)
	switch err := k.Get(ctx, client.ObjectKeyFromObject(o), live); {
	case apierrors.IsNotFound(err):
		return k.Create(ctx, o, strict)
	case err != nil:
		return err
	}
	o.SetResourceVersion(live.GetResourceVersion())
	return k.Update(ctx, o, strict)
}

func findCluster(t *testing.T, objs []etcdshapes.Object) *etcdv1alpha2.EtcdCluster {
	t.Helper()
	c := clusterIn(objs)
	if c == nil {
		t.Fatal("the stack has no EtcdCluster")
	}
	return c
}

// clusterIn is the stack's EtcdCluster; nil when it has none.
func clusterIn(objs []etcdshapes.Object) *etcdv1alpha2.EtcdCluster {
	for _, o := range objs {
		if c, ok := o.(*etcdv1alpha2.EtcdCluster); ok {
			return c
		}
	}
	return nil
}

// equalResources compares quantities by value, as the server stores them.
func equalResources(got, want *etcdv1alpha2.EtcdCluster) bool {
	g, w := got.Spec.Resources, want.Spec.Resources
	if g == nil || w == nil {
		return g == w
	}
	return equalList(g.Limits, w.Limits) && equalList(g.Requests, w.Requests)
}

func equalList(got, want corev1.ResourceList) bool {
	if len(got) != len(want) {
		return false
	}
	for name, q := range want {
		g, ok := got[name]
		if !ok || g.Cmp(q) != 0 {
			return false
		}
	}
	return true
}

// formatList prints a resource list as "cpu=200m memory=256Mi", sorted.
func formatList(l corev1.ResourceList) string {
	names := make([]string, 0, len(l))
	for name := range l {
		names = append(names, string(name))
	}
	sort.Strings(names)
	parts := make([]string, 0, len(names))
	for _, name := range names {
		q := l[corev1.ResourceName(name)]
		parts = append(parts, name+"="+q.String())
	}
	return strings.Join(parts, " ")
}

func requests(c *etcdv1alpha2.EtcdCluster) corev1.ResourceList {
	if c.Spec.Resources == nil {
		return nil
	}
	return c.Spec.Resources.Requests
}
