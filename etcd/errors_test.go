package etcd_test

import (
	"strings"
	"testing"

	"k8s.io/utils/ptr"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/invalidtest"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestOptionsEveryError: independent bad inputs are all refused, in the
// order of the checks, so the first is the one a check that stops at its
// first failure gives.
func TestOptionsEveryError(t *testing.T) {
	bad := corev1.NodeInclusionPolicy("Maybe")
	for _, c := range []struct {
		name   string
		o      etcd.Options
		fields []string
	}{
		{"version, replicas, size", etcd.Options{Version: "3.6", Replicas: -1, Size: resource.MustParse("-1")},
			[]string{"Version", "Replicas", "Size"}},
		{"storage class, ratios", etcd.Options{StorageClassName: "Bad_Class", Ratios: etcd.Ratios{CPU: "x", EphemeralStorage: "0"}},
			[]string{"StorageClassName", "Ratios.CPU", "Ratios.EphemeralStorage"}},
		{"bad ratio still checks the limits", etcd.Options{Ratios: etcd.Ratios{Memory: "-2"}, Resources: corev1.ResourceList{"cpu": resource.MustParse("-1"), "gpu": resource.MustParse("1")}},
			[]string{"Ratios.Memory", "Resources[cpu]", "Resources[gpu]"}},
		{"each resource and each constraint", etcd.Options{
			Resources: corev1.ResourceList{"cpu": resource.MustParse("-1"), "memory": resource.MustParse("-1")},
			TopologySpreadConstraints: []corev1.TopologySpreadConstraint{
				{MaxSkew: 0, TopologyKey: "zone", WhenUnsatisfiable: "Never"},
				{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule, NodeTaintsPolicy: &bad},
			},
			Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{PreferredDuringSchedulingIgnoredDuringExecution: []corev1.WeightedPodAffinityTerm{{Weight: 0, PodAffinityTerm: corev1.PodAffinityTerm{TopologyKey: "zone"}}}}},
		}, []string{"Resources[cpu]", "Resources[memory]", "TopologySpreadConstraints[0].maxSkew", "TopologySpreadConstraints[0].whenUnsatisfiable",
			"TopologySpreadConstraints[1].nodeTaintsPolicy", "Affinity.podAntiAffinity.preferredDuringSchedulingIgnoredDuringExecution[0].weight"}},
		// A refused maxSkew or whenUnsatisfiable hides neither the
		// constraint's other fields nor the next constraint's; minDomains
		// is not held against a whenUnsatisfiable that is itself refused,
		// nor is a duplicate of a refused constraint.
		{"a refused field hides no other", etcd.Options{
			TopologySpreadConstraints: []corev1.TopologySpreadConstraint{
				{MaxSkew: 0, TopologyKey: "zone", WhenUnsatisfiable: "Never", MinDomains: ptr.To(int32(2)), MatchLabelKeys: []string{"bad key!"}},
				{MaxSkew: 0, TopologyKey: "zone", WhenUnsatisfiable: "Never"},
			},
		}, []string{"TopologySpreadConstraints[0].maxSkew", "TopologySpreadConstraints[0].whenUnsatisfiable", "TopologySpreadConstraints[0].matchLabelKeys[0]",
			"TopologySpreadConstraints[1].maxSkew", "TopologySpreadConstraints[1].whenUnsatisfiable"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			invalidtest.RequireEvery(t, c.o.Validate(), c.fields...)
		})
	}
	// One bad input is the *invalid.Error itself.
	err := etcd.Options{Replicas: 100}.Validate()
	_, ok := err.(*invalid.Error)
	require.True(t, ok, "%T", err)
	require.Equal(t, "Replicas: invalid value 100: must be at most 99 (etcd advises at most 7 members)", err.Error())
}

// everyErrorCase is the error of a call with bad inputs and the fields it
// must refuse, in order.
type everyErrorCase struct {
	name   string
	err    error
	fields []string
}

// requireEveryCase checks each case's error in a subtest of its own.
func requireEveryCase(t *testing.T, cases []everyErrorCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			invalidtest.RequireEvery(t, c.err, c.fields...)
		})
	}
}

// TestSnapshotEveryError: the names, the snapshot name and each field of
// the destination are refused each on its own.
func TestSnapshotEveryError(t *testing.T) {
	n := etcdNames(t)
	badS3 := s3Dest("backups")
	badS3.S3.Endpoint = "minio:9000"
	badS3.S3.Region = "us east"
	badS3.S3.CredentialsSecretRef.Name = ""
	badPVC := v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "Bad", SubPath: "/abs"}}
	snapshot := func(names naming.Names, snap string, dest v1alpha2.SnapshotLocation) error {
		_, err := etcd.Snapshot(names, snap, dest)
		return err
	}
	requireEveryCase(t, []everyErrorCase{
		{"names, name, destination", snapshot(naming.Names{}, "Bad_Name", v1alpha2.SnapshotLocation{}), []string{"names", "name", "destination"}},
		{"each S3 field", snapshot(n, "x", badS3), []string{"destination.s3.endpoint", "destination.s3.region", "destination.s3.credentialsSecretRef.name", "destination.s3.key"}},
		{"name and bucket", snapshot(n, "", func() v1alpha2.SnapshotLocation { d := s3Dest(""); d.S3.Bucket = "B"; return d }()), []string{"name", "destination.s3.bucket"}},
		{"claim and subPath", snapshot(n, "x", badPVC), []string{"destination.pvc.claimName", "destination.pvc.subPath"}},
	})
	t.Run("SnapshotFile", func(t *testing.T) {
		_, err := etcd.SnapshotFile(badPVC, "Bad_Name")
		invalidtest.RequireEvery(t, err, "name", "destination.pvc.claimName", "destination.pvc.subPath")
	})
	t.Run("ValidateSnapshotDestination", func(t *testing.T) {
		invalidtest.RequireEvery(t, etcd.ValidateSnapshotDestination("to", badS3), "to.s3.endpoint", "to.s3.region", "to.s3.credentialsSecretRef.name", "to.s3.key")
	})
	t.Run("ValidateRestoreSource", func(t *testing.T) {
		src := s3Dest("")
		src.S3.Bucket = "ab"
		invalidtest.RequireEvery(t, etcd.ValidateRestoreSource("source", src), "source.s3.bucket", "source.s3.key")
		invalidtest.RequireEvery(t, etcd.ValidateRestoreSource("source", v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{}}), "source.pvc.claimName", "source.pvc.subPath")
	})
	t.Run("Restore", func(t *testing.T) {
		cl, err := etcd.Cluster(n, etcd.Options{})
		require.NoError(t, err)
		cl.Spec.Storage.Medium = v1alpha2.StorageMediumMemory
		invalidtest.RequireEvery(t, etcd.Restore(pvcDest(""))(cl), "bootstrap.restore.source.pvc.subPath", "bootstrap.restore")
		require.Nil(t, cl.Spec.Bootstrap)
		invalidtest.RequireEvery(t, etcd.Restore(pvcDest("a.db"))(nil), "bootstrap.restore")
	})
	// One bad field is the *invalid.Error itself, not a List of one.
	_, err := etcd.Snapshot(n, "x", s3Dest("backups"))
	require.Equal(t, `destination.s3.key: invalid value "backups": must be a prefix ending in "/" (the operator appends "<snapshot>.db")`, err.Error())
}

// TestScheduledSnapshotsEveryError: the names, the schedule (each bad cron
// field), keep and the destination are refused each on its own.
func TestScheduledSnapshotsEveryError(t *testing.T) {
	n := etcdNames(t)
	schedule := func(names naming.Names, o etcd.SnapshotScheduleOptions) error {
		_, err := etcd.ScheduledSnapshots(names, o)
		return err
	}
	requireEveryCase(t, []everyErrorCase{
		{"everything", schedule(naming.Names{}, etcd.SnapshotScheduleOptions{Schedule: "@often", Keep: -1, Destination: v1alpha2.SnapshotLocation{}}),
			[]string{"names", "schedule", "keep", "destination"}},
		{"schedule and keep", schedule(n, etcd.SnapshotScheduleOptions{Schedule: "0 24 * * *", Keep: naming.MaxSnapshotKeep + 1, Destination: pvcDest("")}),
			[]string{"schedule", "keep"}},
		{"keep and destination", schedule(n, etcd.SnapshotScheduleOptions{Schedule: "@daily", Keep: -1, Destination: s3Dest("no-slash")}),
			[]string{"keep", "destination.s3.key"}},
		{"each bad cron field", schedule(n, etcd.SnapshotScheduleOptions{Schedule: "60 24 * 13 *", Destination: pvcDest("")}),
			[]string{"schedule", "schedule", "schedule"}},
	})
	err := etcd.ValidateSchedule("schedule", "60 24 0 * *")
	require.Equal(t, `schedule: invalid value "60 24 0 * *": minute field "60": end of range (60) above maximum (59): 60
schedule: invalid value "60 24 0 * *": hour field "24": end of range (24) above maximum (23): 24
schedule: invalid value "60 24 0 * *": day of month field "0": beginning of range (0) below minimum (1): 0`, err.Error())
	// One bad field is the *invalid.Error itself, not a List of one.
	err = etcd.ValidateSchedule("schedule", "0 24 * * *")
	require.Equal(t, `schedule: invalid value "0 24 * * *": hour field "24": end of range (24) above maximum (23): 24`, err.Error())
}

// TestCheckJobEveryError: the names, every bad option, the load and the
// image are refused together; the quota rule runs whenever the load and
// the size are valid, and only then.
func TestCheckJobEveryError(t *testing.T) {
	n := etcdNames(t)
	checkJob := func(names naming.Names, o etcd.Options, c etcd.CheckOptions) error {
		_, err := etcd.CheckJob(names, o, c)
		return err
	}
	requireEveryCase(t, []everyErrorCase{
		{"names, options, load, image", checkJob(naming.Names{}, etcd.Options{Version: "3", Replicas: -1}, etcd.CheckOptions{Load: "huge", Image: "my etcd"}),
			[]string{"names", "Version", "Replicas", "Load", "Image"}},
		{"version and the quota of a valid size", checkJob(n, etcd.Options{Version: "3"}, etcd.CheckOptions{Load: "xl", Datascale: true}),
			[]string{"Version", "Load"}},
		{"no quota rule on a bad size", checkJob(n, etcd.Options{Size: resource.MustParse("-1Gi")}, etcd.CheckOptions{Load: "xl", Datascale: true, Image: "a\tb"}),
			[]string{"Size", "Image"}},
		{"no quota rule on a bad load", checkJob(n, etcd.Options{Version: "latest"}, etcd.CheckOptions{Load: "xxl"}),
			[]string{"Version", "Load"}},
	})
	_, err := etcd.CheckJob(n, etcd.Options{Version: "3", Size: resource.MustParse(etcd.MinSize)}, etcd.CheckOptions{Load: "l"})
	invalidtest.RequireEvery(t, err, "Version", "Load")
	require.Contains(t, invalid.All(err)[1].Rule, "more than half of the cluster's quota of 255013683 bytes (size 256Mi)")
	// One bad input is the *invalid.Error itself, not a List of one.
	_, err = etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{Load: "huge"})
	require.Equal(t, `Load: invalid value "huge": must be one of s, m, l or xl (etcdctl's workload models)`, err.Error())
}

// TestCleanupEveryError: bad names and a bad replicas are both refused.
func TestCleanupEveryError(t *testing.T) {
	_, err := etcd.Cleanup(naming.Names{}, -1)
	invalidtest.RequireEvery(t, err, "names", "replicas")
	_, err = etcd.Cleanup(etcdNames(t), etcd.MaxReplicas+1)
	require.Equal(t, "replicas: invalid value 100: must be between 1 and 99", err.Error())
}

// TestSelectorRefusalsInOneOrder: a spread constraint's or an affinity
// term's selector with several bad labels is refused in the same order on
// every run (by key), not in the order a map gives them.
func TestSelectorRefusalsInOneOrder(t *testing.T) {
	bad := &metav1.LabelSelector{MatchLabels: map[string]string{"z z": "1", "a a": "2", "m m": "3", "ok": "bad value!", "b b": "4"}}
	for name, o := range map[string]etcd.Options{
		"spread": {TopologySpreadConstraints: []corev1.TopologySpreadConstraint{
			{MaxSkew: 1, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule, LabelSelector: bad},
		}},
		"affinity": {Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{
			RequiredDuringSchedulingIgnoredDuringExecution: []corev1.PodAffinityTerm{{TopologyKey: "zone", LabelSelector: bad, NamespaceSelector: bad}},
		}}},
	} {
		t.Run(name, func(t *testing.T) {
			first := o.Validate()
			require.Error(t, first)
			a, z := strings.Index(first.Error(), `"a a"`), strings.Index(first.Error(), `"z z"`)
			require.True(t, a >= 0 && z > a, first.Error())
			for range 30 {
				require.Equal(t, first.Error(), o.Validate().Error())
			}
		})
	}
}
