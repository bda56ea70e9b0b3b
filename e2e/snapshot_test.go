//go:build apiserver

package e2e

import (
	"context"
	"encoding/json"
	"fmt"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	etcdv1alpha2 "github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/stacknames"
	"github.com/etcdshapes/etcdshapes/naming"
	authorizationv1 "k8s.io/api/authorization/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	apierrors "k8s.io/apimachinery/pkg/api/errors"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
	"sigs.k8s.io/controller-runtime/pkg/client"
)

// Snapshot destinations. Every optional field is set, so the CRD schema
// sees all of them.
func s3Destination(n naming.Names) etcdv1alpha2.SnapshotLocation {
	return etcdv1alpha2.SnapshotLocation{S3: &etcdv1alpha2.S3Location{
		Endpoint:             "https://s3.example.com",
		Bucket:               "etcd-backups",
		Key:                  n.Namespace + "/" + n.Cluster + "/",
		Region:               "eu-west-1",
		ForcePathStyle:       true,
		CredentialsSecretRef: corev1.LocalObjectReference{Name: "etcd-backup-s3"},
	}}
}

func pvcDestination(n naming.Names) etcdv1alpha2.SnapshotLocation {
	return etcdv1alpha2.SnapshotLocation{PVC: &etcdv1alpha2.PVCLocation{ClaimName: "etcd-backups", SubPath: "snapshots/" + n.Cluster}}
}

// snapshotStacks are the distinct stacks (caller, namespace, release) of
// the golden scenarios, names at their limits included, in scenario order.
func snapshotStacks(t *testing.T) []naming.Names {
	t.Helper()
	seen := map[string]bool{}
	var out []naming.Names
	for _, s := range golden.All() {
		key := s.Caller.String() + "\x00" + s.Namespace + "\x00" + s.Release
		if seen[key] {
			continue
		}
		seen[key] = true
		n, err := stacknames.Of(s.Caller, s.Namespace, s.Release)
		if err != nil {
			t.Fatalf("%s: %v", s.Name, err)
		}
		out = append(out, n)
	}
	return out
}

// TestSnapshotObjectsAccepted creates every snapshot shape with server-side
// dry-run and strict field validation, as typed objects and as printed
// YAML (see TestGoldenObjectsAccepted), counted in the closing line:
//
//   - for every stack of the golden scenarios: a one-off EtcdSnapshot to S3
//     and one to a PVC (named like the longest slot of a 100-snapshot
//     ring); a snapshot schedule to S3 (default keep) and one to a PVC
//     (keep 100): ServiceAccount, Role, RoleBinding, CronJob; and the
//     EtcdSnapshot each schedule's job would create (the manifest carried
//     in the CronJob's environment, for its first and its last slot);
//   - for every golden scenario that renders an EtcdCluster: that cluster
//     bootstrapping from a snapshot file in S3 and on a PVC (etcd.Restore
//     of etcd.SnapshotFile), which the CRD's CEL rules check.
func TestSnapshotObjectsAccepted(t *testing.T) {
	inEachStack(t, func(ctx context.Context, t *testing.T, n naming.Names) {
		var objs []etcdshapes.Object
		s3, pvc := s3Destination(n), pvcDestination(n)
		one, err := etcd.Snapshot(n, "before-upgrade", s3)
		if err != nil {
			t.Fatal(err)
		}
		longest, err := etcd.Snapshot(n, slotName(t, n, naming.MaxSnapshotKeep-1), pvc)
		if err != nil {
			t.Fatal(err)
		}
		objs = append(objs, one, longest)
		for _, o := range []etcd.SnapshotScheduleOptions{
			{Schedule: "0 3 * * *", Destination: s3},
			{Schedule: "@hourly", Keep: naming.MaxSnapshotKeep, Destination: pvc},
		} {
			sched, err := etcd.ScheduledSnapshots(n, o)
			if err != nil {
				t.Fatal(err)
			}
			for _, ro := range sched.Objects() {
				obj, ok := ro.(etcdshapes.Object)
				if !ok {
					t.Fatalf("%T is not an etcdshapes.Object", ro)
				}
				objs = append(objs, obj)
			}
			// What the job sends: the manifest with a slot's name.
			for _, slot := range []string{sched.Slots[0], sched.Slots[len(sched.Slots)-1]} {
				u, err := ringManifest(sched.CronJob, slot)
				if err != nil {
					t.Fatal(err)
				}
				acceptedOnce(ctx, t, "the job's EtcdSnapshot "+n.Namespace+"/"+slot, u)
			}
		}
		for _, o := range objs {
			createBoth(ctx, t, o)
		}
	})
	ctx := context.Background()
	for _, s := range golden.All() {
		t.Run("restore/"+s.Name, func(t *testing.T) {
			objs, err := s.Render()
			if err != nil {
				t.Fatal(err)
			}
			base := clusterIn(objs)
			if base == nil {
				t.Skip("renders no EtcdCluster")
			}
			n, err := stacknames.Of(s.Caller, s.Namespace, s.Release)
			if err != nil {
				t.Fatal(err)
			}
			for _, src := range []struct {
				dest etcdv1alpha2.SnapshotLocation
				name string
			}{
				{s3Destination(n), slotName(t, n, 0)},
				{pvcDestination(n), "before-upgrade"},
			} {
				file, err := etcd.SnapshotFile(src.dest, src.name)
				if err != nil {
					t.Fatal(err)
				}
				c := base.DeepCopy()
				if err := etcd.Restore(file)(c); err != nil {
					t.Fatal(err)
				}
				if err := ensureNamespace(ctx, c.Namespace); err != nil {
					t.Fatal(err)
				}
				createBoth(ctx, t, c)
			}
		})
	}
}

// inEachStack runs fn in a subtest for each of snapshotStacks, its
// namespace created.
func inEachStack(t *testing.T, fn func(ctx context.Context, t *testing.T, n naming.Names)) {
	t.Helper()
	ctx := context.Background()
	for _, n := range snapshotStacks(t) {
		t.Run(n.Namespace+"/"+n.Cluster, func(t *testing.T) {
			if err := ensureNamespace(ctx, n.Namespace); err != nil {
				t.Fatal(err)
			}
			fn(ctx, t, n)
		})
	}
}

// createBoth dry-run creates o as the typed object and as the printed
// YAML, and counts it once: accepted when both are.
func createBoth(ctx context.Context, t *testing.T, o etcdshapes.Object) {
	t.Helper()
	// Print before the typed create: Create overwrites the object with the
	// server's answer.
	u, err := asUnstructured(o)
	if err != nil {
		t.Fatal(err)
	}
	name := describe(o)
	printedErr := k.Create(ctx, u, client.DryRunAll, strict)
	typedErr := k.Create(ctx, o, client.DryRunAll, strict)
	switch {
	case printedErr == nil && typedErr == nil:
		count(true)
		return
	case printedErr == nil:
		t.Errorf("REJECTED %s: only the typed object: %s", name, oneLine(typedErr))
	case typedErr == nil:
		t.Errorf("REJECTED %s: only the printed YAML: %s", name, oneLine(printedErr))
	default:
		t.Errorf("REJECTED %s: %s", name, oneLine(typedErr))
		if oneLine(typedErr) != oneLine(printedErr) {
			t.Errorf("  printed YAML: %s", oneLine(printedErr))
		}
	}
	count(false)
}

// acceptedOnce dry-run creates an object that exists only as JSON.
func acceptedOnce(ctx context.Context, t *testing.T, name string, u *unstructured.Unstructured) {
	t.Helper()
	if err := k.Create(ctx, u, client.DryRunAll, strict); err != nil {
		t.Errorf("REJECTED %s: %s", name, oneLine(err))
		count(false)
		return
	}
	count(true)
}

// ringManifest is the EtcdSnapshot the schedule's script creates for
// slot: SNAPSHOT_HEAD, the slot name, SNAPSHOT_TAIL.
func ringManifest(cj *batchv1.CronJob, slot string) (*unstructured.Unstructured, error) {
	env := map[string]string{}
	for _, c := range cj.Spec.JobTemplate.Spec.Template.Spec.Containers {
		for _, e := range c.Env {
			env[e.Name] = e.Value
		}
	}
	head, okHead := env["SNAPSHOT_HEAD"]
	tail, okTail := env["SNAPSHOT_TAIL"]
	if !okHead || !okTail {
		return nil, fmt.Errorf("CronJob %s has no SNAPSHOT_HEAD/SNAPSHOT_TAIL", cj.Name)
	}
	u := &unstructured.Unstructured{}
	if err := json.Unmarshal([]byte(head+slot+tail), &u.Object); err != nil {
		return nil, fmt.Errorf("CronJob %s: the manifest for %s is not JSON: %w", cj.Name, slot, err)
	}
	if u.GetName() != slot || u.GetNamespace() != cj.Namespace {
		return nil, fmt.Errorf("CronJob %s: the manifest for %s names %s/%s", cj.Name, slot, u.GetNamespace(), u.GetName())
	}
	return u, nil
}

// TestSnapshotScheduleRBAC installs a snapshot schedule's ServiceAccount,
// Role and RoleBinding for real and asks the API server's RBAC authorizer
// (SubjectAccessReview) what the schedule's pods may do: exactly what the
// script needs (create snapshots; get, list, watch and delete the ring's
// names), nothing on other snapshots, nothing on the EtcdCluster.
func TestSnapshotScheduleRBAC(t *testing.T) {
	ctx := context.Background()
	n, err := naming.ForCluster("tenant-rbac", "kubernetes-rbac")
	if err != nil {
		t.Fatal(err)
	}
	if err := ensureNamespace(ctx, n.Namespace); err != nil {
		t.Fatal(err)
	}
	sched, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "@daily", Keep: 3, Destination: pvcDestination(n)})
	if err != nil {
		t.Fatal(err)
	}
	for _, o := range []client.Object{sched.ServiceAccount, sched.Role, sched.RoleBinding} {
		if err := k.Create(ctx, o, strict); err != nil && !apierrors.IsAlreadyExists(err) {
			t.Fatalf("creating %s: %v", describe(o), err)
		}
		t.Cleanup(func() { _ = k.Delete(context.Background(), o) })
	}
	user := "system:serviceaccount:" + n.Namespace + ":" + sched.ServiceAccount.Name
	const group, resource = "etcd-operator.cozystack.io", "etcdsnapshots"
	cases := []struct {
		verb, resource, name string
		allowed              bool
	}{
		{"create", resource, "", true},
		{"get", resource, sched.Slots[0], true},
		{"delete", resource, sched.Slots[2], true},
		{"watch", resource, sched.Slots[1], true},
		{"list", resource, sched.Slots[1], true},
		{"delete", resource, slotName(t, n, 3), false}, // beyond the ring
		{"delete", resource, "before-upgrade", false},  // a hand-made snapshot
		{"list", resource, "", false},
		{"update", resource, sched.Slots[0], false},
		{"patch", resource, sched.Slots[0], false},
		{"deletecollection", resource, "", false},
		{"delete", "etcdclusters", n.Cluster, false},
		{"get", "etcdclusters", n.Cluster, false},
	}
	ok := 0
	for _, c := range cases {
		sar := &authorizationv1.SubjectAccessReview{Spec: authorizationv1.SubjectAccessReviewSpec{
			User:   user,
			Groups: []string{"system:serviceaccounts", "system:serviceaccounts:" + n.Namespace, "system:authenticated"},
			ResourceAttributes: &authorizationv1.ResourceAttributes{
				Namespace: n.Namespace, Verb: c.verb, Group: group, Version: "v1alpha2", Resource: c.resource, Name: c.name,
			},
		}}
		// RBAC grants take effect as the authorizer's informers see them.
		var got bool
		for attempt := 0; attempt < 50; attempt++ {
			if err := k.Create(ctx, sar); err != nil {
				t.Fatal(err)
			}
			got = sar.Status.Allowed
			if got == c.allowed || !c.allowed {
				break
			}
			sleep()
		}
		if got != c.allowed {
			t.Errorf("%s %s %q: allowed=%v, want %v (%s)", c.verb, c.resource, c.name, got, c.allowed, sar.Status.Reason)
			continue
		}
		ok++
	}
	summaries.add("snapshot schedule RBAC: %d of %d access reviews as designed (least privilege on the ring's names)", ok, len(cases))
}

// slotName is n's snapshot slot i, which the test expects to be valid.
func slotName(t testing.TB, n naming.Names, i int) string {
	t.Helper()
	s, err := n.SnapshotSlot(i)
	if err != nil {
		t.Fatal(err)
	}
	return s
}
