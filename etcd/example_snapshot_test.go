package etcd_test

import (
	"fmt"
	"time"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

var backups = v1alpha2.SnapshotLocation{S3: &v1alpha2.S3Location{
	Endpoint:             "https://s3.example.com",
	Bucket:               "etcd-backups",
	Key:                  "tenant-demo/",
	CredentialsSecretRef: corev1.LocalObjectReference{Name: "etcd-backup-s3"},
}}

// A one-off snapshot before an upgrade, and where its file lands.
func ExampleSnapshot() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-demo")
	s, err := etcd.Snapshot(n, "before-upgrade", backups)
	if err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(s.Kind, s.Namespace+"/"+s.Name, "of", s.Spec.ClusterRef.Name)
	file, _ := etcd.SnapshotFile(backups, s.Name)
	fmt.Println("file", file.S3.Bucket+"/"+file.S3.Key)

	_, err = etcd.Snapshot(n, "before-upgrade", v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "backups", SubPath: "/abs"}})
	fmt.Println(err)
	// Output:
	// EtcdSnapshot tenant-demo/before-upgrade of kubernetes-demo-etcd
	// file etcd-backups/tenant-demo/before-upgrade.db
	// destination.pvc.subPath: invalid value "/abs": must be relative to the volume
}

// A nightly snapshot keeping the last three: a ring of three names, which
// is all the schedule's Role may delete.
func ExampleScheduledSnapshots() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-demo")
	s, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "0 3 * * *", Keep: 3, Destination: backups})
	if err != nil {
		fmt.Println(err)
		return
	}
	for _, o := range s.Objects() {
		fmt.Println(o.GetObjectKind().GroupVersionKind().Kind, s.CronJob.Name)
	}
	for _, r := range s.Role.Rules {
		fmt.Println(r.Verbs, r.ResourceNames)
	}
	_, err = etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "0 25 * * *", Destination: backups})
	fmt.Println(err)
	// Output:
	// ServiceAccount kubernetes-demo-etcd-snapshot
	// Role kubernetes-demo-etcd-snapshot
	// RoleBinding kubernetes-demo-etcd-snapshot
	// CronJob kubernetes-demo-etcd-snapshot
	// [create] []
	// [get list watch delete] [kubernetes-demo-etcd-snapshot-0 kubernetes-demo-etcd-snapshot-1 kubernetes-demo-etcd-snapshot-2]
	// schedule: invalid value "0 25 * * *": hour field "25": end of range (25) above maximum (23): 25
}

// Restoring a new cluster from the last good backup of the schedule
// above: the newest snapshot that completed, read from the live
// EtcdSnapshots (client.List, or kubectl get etcdsnapshots -o yaml),
// whatever its slot. Slot 0 is not the newest: the ring reuses its slots
// in turn, and the newest may have failed.
func ExampleRestore() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-demo")
	day := func(d int, slot int, phase string) v1alpha2.EtcdSnapshot {
		name, _ := n.SnapshotSlot(slot)
		s, _ := etcd.Snapshot(n, name, backups)
		s.CreationTimestamp = metav1.Date(2026, 12, d, 3, 0, 0, 0, time.UTC)
		s.Status = &v1alpha2.EtcdSnapshotStatus{Phase: phase}
		return *s
	}
	live := []v1alpha2.EtcdSnapshot{
		day(4, 0, v1alpha2.SnapshotPhaseFailed), // the ring came round to slot 0 again
		day(2, 1, v1alpha2.SnapshotPhaseComplete),
		day(3, 2, v1alpha2.SnapshotPhaseComplete),
	}
	snap, err := etcd.NewestSnapshot(n, live)
	if err != nil {
		fmt.Println(err)
		return
	}
	src, err := etcd.SnapshotSource(snap)
	if err != nil {
		fmt.Println(err)
		return
	}
	c, _ := etcd.Cluster(n, etcd.Options{})
	if err := etcd.Restore(src)(c); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(snap.Name, snap.CreationTimestamp.Format(time.DateOnly))
	fmt.Println(c.Spec.Bootstrap.Restore.Source.S3.Key)
	// Output:
	// kubernetes-demo-etcd-snapshot-2 2026-12-03
	// tenant-demo/kubernetes-demo-etcd-snapshot-2.db
}
