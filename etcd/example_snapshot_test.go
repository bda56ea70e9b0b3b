package etcd_test

import (
	"fmt"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
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

// Restoring a new cluster from slot 1 of the schedule above.
func ExampleRestore() {
	n, _ := naming.ForCluster("tenant-demo", "kubernetes-demo")
	c, _ := etcd.Cluster(n, etcd.Options{})
	src, err := etcd.SnapshotFile(backups, n.SnapshotSlot(1))
	if err != nil {
		fmt.Println(err)
		return
	}
	if err := etcd.Restore(src)(c); err != nil {
		fmt.Println(err)
		return
	}
	fmt.Println(c.Spec.Bootstrap.Restore.Source.S3.Key)
	// Output:
	// tenant-demo/kubernetes-demo-etcd-snapshot-1.db
}
