package etcdshapes_test

import (
	"strings"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// snapshotBadInputs are snapshots and schedules that can never work (a
// destination nothing can reach, a schedule that never fires) and text
// the YAML printer would refuse without naming it or rewrite: each is
// refused with its field named.
func snapshotBadInputs() []badInput {
	n, err := naming.ForCluster("tenant-demo", "kubernetes-demo")
	if err != nil {
		panic(err)
	}
	s3 := func(edit func(*v1alpha2.S3Location)) v1alpha2.SnapshotLocation {
		d := v1alpha2.SnapshotLocation{S3: &v1alpha2.S3Location{
			Endpoint: "https://minio.tenant-root.svc:9000", Bucket: "etcd-backups", Key: "etcd/",
			CredentialsSecretRef: corev1.LocalObjectReference{Name: "etcd-backup-s3"},
		}}
		edit(d.S3)
		return d
	}
	endpoint := func(e string) func() error {
		return func() error {
			_, err := etcd.Snapshot(n, "x", s3(func(s *v1alpha2.S3Location) { s.Endpoint = e }))
			return err
		}
	}
	key := func(k string) func() error {
		return func() error {
			_, err := etcd.Snapshot(n, "x", s3(func(s *v1alpha2.S3Location) { s.Key = k }))
			return err
		}
	}
	subPath := func(p string) func() error {
		return func() error {
			_, err := etcd.Snapshot(n, "x", v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "etcd-backups", SubPath: p}})
			return err
		}
	}
	schedule := func(s string) func() error {
		return func() error {
			_, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: s, Destination: s3(func(*v1alpha2.S3Location) {})})
			return err
		}
	}
	const ep, sch = "destination.s3.endpoint", "schedule"
	const hidden = "without control, format or line separator characters"
	return []badInput{
		// Strings over the length their consumer takes.
		{"snapshot endpoint longer than 1024 bytes", endpoint("https://s3.example.com/" + strings.Repeat("p", 1002)), ep, "https://s3.example.com/" + strings.Repeat("p", 1002), "longer than 1024 bytes"},
		{"snapshot schedule longer than 1024 bytes", schedule("0" + strings.Repeat(" ", 1018) + "3 * * *"), sch, "0" + strings.Repeat(" ", 1018) + "3 * * *", "longer than 1024 bytes"},
		{"snapshot sub-path longer than 957 bytes", subPath(strings.Repeat(strings.Repeat("d", 200)+"/", 4) + strings.Repeat("d", 154)), "destination.pvc.subPath", strings.Repeat(strings.Repeat("d", 200)+"/", 4) + strings.Repeat("d", 154), "at most 957 bytes"},
		{"snapshot sub-path segment longer than NAME_MAX", subPath("etcd/" + strings.Repeat("s", 256)), "destination.pvc.subPath", "etcd/" + strings.Repeat("s", 256), "NAME_MAX"},
		// Endpoints nothing can connect to.
		{"snapshot endpoint without a host (an unset $S3_HOST)", endpoint("https://:443"), ep, "https://:443", "must name a host"},
		{"snapshot endpoint port past 65535", endpoint("https://s3.example.com:99999"), ep, "https://s3.example.com:99999", "port from 1 to 65535"},
		{"snapshot endpoint port 0", endpoint("http://minio:0"), ep, "http://minio:0", "port from 1 to 65535"},
		{"snapshot endpoint empty port", endpoint("http://minio:"), ep, "http://minio:", "port from 1 to 65535"},
		{"snapshot endpoint port not a number", endpoint("http://minio:nine"), ep, "http://minio:nine", "http or https URL"},
		{"snapshot endpoint scheme", endpoint("s3://etcd-backups"), ep, "s3://etcd-backups", "http or https URL"},
		{"snapshot endpoint query", endpoint("https://s3.example.com/?region=x"), ep, "https://s3.example.com/?region=x", "query"},
		{"snapshot endpoint host not a DNS name", endpoint("https://s3_host:9000"), ep, "https://s3_host:9000", "DNS name"},
		{"snapshot endpoint NEL", endpoint("https://s3\u0085.example.com"), ep, "https://s3\u0085.example.com", "printable ASCII"},
		// A backup on the volume it backs up: lost with it.
		{"snapshot onto a member's data volume", func() error {
			_, err := etcd.Snapshot(n, "x", v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "data-kubernetes-demo-etcd-0"}})
			return err
		}, "destination.pvc.claimName", "data-kubernetes-demo-etcd-0", "an etcd member's data volume"},
		{"scheduled snapshots onto another etcd's member volume", func() error {
			_, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "@daily", Destination: v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "data-etcd-1"}}})
			return err
		}, "destination.pvc.claimName", "data-etcd-1", "an etcd member's data volume"},
		// Schedules the CronJob controller accepts and never runs.
		{"schedule February 30", schedule("0 3 30 2 *"), sch, "0 3 30 2 *", "never fires"},
		// A ring of one never takes a second snapshot: it keeps its
		// only completed one, the last good backup.
		{"schedule keeping one snapshot", func() error {
			_, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "@daily", Keep: 1, Destination: s3(func(*v1alpha2.S3Location) {})})
			return err
		}, "keep", "1", "must be between 2 and 100 (the ring always keeps its newest completed snapshot"},
		// Nothing to restore from: no snapshot of the cluster completed.
		{"restore from a snapshot that never completed", func() error {
			s, err := etcd.Snapshot(n, "x", s3(func(*v1alpha2.S3Location) {}))
			if err != nil {
				return err
			}
			s.Status = &v1alpha2.EtcdSnapshotStatus{Phase: v1alpha2.SnapshotPhaseFailed}
			_, err = etcd.SnapshotSource(s)
			return err
		}, "snapshot.status.phase", "Failed", "must be Complete to restore from"},
		{"the newest snapshot when none completed", func() error {
			s, err := etcd.Snapshot(n, "x", s3(func(*v1alpha2.S3Location) {}))
			if err != nil {
				return err
			}
			_, err = etcd.NewestSnapshot(n, []v1alpha2.EtcdSnapshot{*s})
			return err
		}, "snapshots", "1 snapshot", "that completed (1 no phase yet)"},
		{"schedule April 31", schedule("0 0 31 4 *"), sch, "0 0 31 4 *", "never fires"},
		{"schedule 31st of short months", schedule("0 0 31 2,4,6,9,11 *"), sch, "0 0 31 2,4,6,9,11 *", "never fires"},
		{"schedule CRON_TZ", schedule("CRON_TZ=UTC 0 3 * * *"), sch, "CRON_TZ=UTC 0 3 * * *", "cannot use TZ or CRON_TZ"},
		{"schedule TZ without a schedule", schedule("TZ=0"), sch, "TZ=0", "cannot use TZ or CRON_TZ"},
		{"schedule @every", schedule("@every 1h"), sch, "@every 1h", "relative to when kube-controller-manager started"},
		{"schedule descriptor in capitals", schedule("@DAILY"), sch, "@DAILY", "unrecognized descriptor"},
		{"schedule non-ASCII space", schedule("0 3 * * *\u00a0"), sch, "0 3 * * *\u00a0", "printable ASCII"},
		{"schedule field out of range", schedule("0 3 * * 7"), sch, "0 3 * * 7", "above maximum (6)"},
		// Text the YAML printer refused unnamed or rewrote.
		{"snapshot key NEL (printed as a space)", key("etcd\u0085x/"), "destination.s3.key", "etcd\u0085x/", hidden},
		{"snapshot key C1 control", key("etcd\u0090x/"), "destination.s3.key", "etcd\u0090x/", hidden},
		{"snapshot key DEL", key("etcd\x7fx/"), "destination.s3.key", "etcd\x7fx/", hidden},
		{"snapshot key line separator", key("etcd\u2028x/"), "destination.s3.key", "etcd\u2028x/", hidden},
		{"snapshot key BOM", key("\ufeffetcd/"), "destination.s3.key", "\ufeffetcd/", hidden},
		{"snapshot key right-to-left override", key("etcd\u202ex/"), "destination.s3.key", "etcd\u202ex/", hidden},
		{"snapshot key invalid UTF-8", key("etcd\xffx/"), "destination.s3.key", "etcd\xffx/", "invalid UTF-8 byte 0xff"},
		{"snapshot key noncharacter", key("etcd\ufffex/"), "destination.s3.key", "etcd\ufffex/", hidden},
		{"snapshot subPath NEL", subPath("etcd\u0085x"), "destination.pvc.subPath", "etcd\u0085x", hidden},
		{"snapshot subPath invalid UTF-8", subPath("etcd\xc3"), "destination.pvc.subPath", "etcd\xc3", "invalid UTF-8"},
		{"snapshot bucket NEL", func() error {
			_, err := etcd.Snapshot(n, "x", s3(func(s *v1alpha2.S3Location) { s.Bucket = "etcd\u0085backups" }))
			return err
		}, "destination.s3.bucket", "etcd\u0085backups", "S3 bucket name"},
		{"snapshot region C1", func() error {
			_, err := etcd.Snapshot(n, "x", s3(func(s *v1alpha2.S3Location) { s.Region = "us\u0090east" }))
			return err
		}, "destination.s3.region", "us\u0090east", "letters, digits"},
		{"snapshot secret NEL", func() error {
			_, err := etcd.Snapshot(n, "x", s3(func(s *v1alpha2.S3Location) { s.CredentialsSecretRef.Name = "s3\u0085" }))
			return err
		}, "destination.s3.credentialsSecretRef.name", "s3\u0085", "Secret name"},
		{"snapshot name NEL", func() error { _, err := etcd.Snapshot(n, "x\u0085y", s3(func(*v1alpha2.S3Location) {})); return err }, "name", "x\u0085y", "DNS-1123 label"},
		{"restore source key NEL", func() error {
			return etcd.ValidateRestoreSource("bootstrap.restore.source", s3(func(s *v1alpha2.S3Location) { s.Key = "etcd\u0085x.db" }))
		}, "bootstrap.restore.source.s3.key", "etcd\u0085x.db", hidden},
		// Annotations passed in, and any object the printer is handed.
		{"annotation NEL", func() error {
			objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"})
			if err != nil {
				return err
			}
			return apply.Modify(objs, apply.WithAnnotations(map[string]string{"example.com/note": "a\u0085b"}))
		}, "annotations.example.com/note", "a\u0085b", "YAML cannot carry byte for byte"},
		{"annotation invalid UTF-8", func() error {
			objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"})
			if err != nil {
				return err
			}
			return apply.Modify(objs, apply.WithAnnotations(map[string]string{"example.com/note": "a\xffb"}))
		}, "annotations.example.com/note", "a\xffb", "invalid UTF-8 byte 0xff"},
		{"printer C1 control", func() error {
			_, err := etcdshapes.Marshal([]etcdshapes.Object{&corev1.ConfigMap{
				TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
				ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "tenant-demo", Annotations: map[string]string{"note": "a\u0090b"}},
			}})
			return err
		}, "metadata.annotations.note", "a\u0090b", "YAML cannot carry byte for byte"},
		{"printer NEL in a key", func() error {
			_, err := etcdshapes.Marshal([]etcdshapes.Object{&corev1.ConfigMap{
				TypeMeta:   metav1.TypeMeta{APIVersion: "v1", Kind: "ConfigMap"},
				ObjectMeta: metav1.ObjectMeta{Name: "x", Namespace: "tenant-demo"},
				Data:       map[string]string{strings.Repeat("k", 3) + "\u0085": "v"},
			}})
			return err
		}, `data["kkk\u0085"]`, "kkk\u0085", "YAML cannot carry byte for byte"},
	}
}
