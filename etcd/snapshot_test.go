package etcd_test

import (
	"errors"
	"flag"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/manifest"
	"github.com/etcdshapes/etcdshapes/plan"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/goldenfile"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/testdata/crdcheck"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/utils/ptr"
)

var update = flag.Bool("update", false, "rewrite testdata/*.yaml from the builders")

func s3Dest(key string) v1alpha2.SnapshotLocation {
	return v1alpha2.SnapshotLocation{S3: &v1alpha2.S3Location{
		Endpoint: "https://minio.tenant-root.svc:9000", Bucket: "etcd-backups", Key: key, Region: "us-east-1",
		ForcePathStyle: true, CredentialsSecretRef: corev1.LocalObjectReference{Name: "etcd-backup-s3"},
	}}
}

func pvcDest(subPath string) v1alpha2.SnapshotLocation {
	return v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "etcd-backups", SubPath: subPath}}
}

type snapshotCase struct {
	name string
	objs func(t *testing.T) []runtime.Object
}

func clusterNames(t *testing.T, release string) naming.Names {
	n, err := naming.ForCluster("tenant-demo", release)
	require.NoError(t, err)
	return n
}

func etcdNames(t *testing.T) naming.Names {
	n, err := naming.ForEtcdChart("tenant-root", "etcd")
	require.NoError(t, err)
	return n
}

var snapshotCases = []snapshotCase{
	{"snapshot-s3", func(t *testing.T) []runtime.Object {
		s, err := etcd.Snapshot(etcdNames(t), "before-upgrade", s3Dest("tenant-root/"))
		require.NoError(t, err)
		return []runtime.Object{s}
	}},
	{"snapshot-pvc", func(t *testing.T) []runtime.Object {
		s, err := etcd.Snapshot(clusterNames(t, "kubernetes-demo"), "kubernetes-demo-manual", pvcDest(""))
		require.NoError(t, err)
		return []runtime.Object{s}
	}},
	{"schedule-s3", func(t *testing.T) []runtime.Object {
		s, err := etcd.ScheduledSnapshots(etcdNames(t), etcd.SnapshotScheduleOptions{Schedule: "0 3 * * *", Destination: s3Dest("tenant-root/etcd/")})
		require.NoError(t, err)
		return asRuntime(s.Objects())
	}},
	{"schedule-pvc-longname", func(t *testing.T) []runtime.Object {
		s, err := etcd.ScheduledSnapshots(clusterNames(t, "kubernetes-production-cluster-eu-west-1-abcdefghijk"),
			etcd.SnapshotScheduleOptions{Schedule: "@hourly", Keep: 24, Destination: pvcDest("hourly")})
		require.NoError(t, err)
		return asRuntime(s.Objects())
	}},
}

func marshalObjects(t *testing.T, objs []runtime.Object) []byte {
	t.Helper()
	list := make([]etcdshapes.Object, 0, len(objs))
	for _, o := range objs {
		list = append(list, o.(etcdshapes.Object))
	}
	out, err := etcdshapes.Marshal(list)
	require.NoError(t, err)
	return out
}

// The snapshot objects are pinned byte for byte in testdata.
func TestSnapshotGolden(t *testing.T) {
	requireGolden(t, snapshotCases)
}

// requireGolden compares each case's objects, marshalled, with
// testdata/<name>.yaml (go test ./etcd -update rewrites them), and with
// themselves marshalled again.
func requireGolden(t *testing.T, cases []snapshotCase) {
	t.Helper()
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			got := marshalObjects(t, c.objs(t))
			want := goldenfile.Read(t, filepath.Join("testdata", c.name+".yaml"), got, *update, "run go test ./etcd -update and read the diff")
			require.Equal(t, string(want), string(got))
			require.Equal(t, string(got), string(marshalObjects(t, c.objs(t))), "deterministic")
		})
	}
}

// The snapshot objects pass the CRDs (EtcdSnapshot's CEL rules), the
// built-in kinds' rules and restricted pod security.
func TestSnapshotObjectsValidate(t *testing.T) {
	c := crdcheck.ForTest(t)
	for _, sc := range snapshotCases {
		t.Run(sc.name, func(t *testing.T) {
			for _, o := range sc.objs(t) {
				require.NoError(t, c.ValidateObject(o))
				for _, pt := range crdcheck.PodTemplates(o) {
					require.NoError(t, crdcheck.Restricted(pt))
				}
			}
		})
	}
	// A restored cluster passes the EtcdCluster CRD's restore rules.
	cl, err := etcd.Cluster(etcdNames(t), etcd.Options{})
	require.NoError(t, err)
	src, err := etcd.SnapshotFile(s3Dest("tenant-root/"), "before-upgrade")
	require.NoError(t, err)
	require.NoError(t, etcd.Restore(src)(cl))
	require.NoError(t, c.ValidateObject(cl))
}

func TestScheduleLeastPrivilege(t *testing.T) {
	n := clusterNames(t, "kubernetes-demo")
	s, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "*/30 1-5 * JAN-jun mon-FRI", Keep: 3, Destination: s3Dest("")})
	require.NoError(t, err)
	assert.Equal(t, []string{"kubernetes-demo-etcd-snapshot-0", "kubernetes-demo-etcd-snapshot-1", "kubernetes-demo-etcd-snapshot-2"}, s.Slots)
	assert.Equal(t, "kubernetes-demo-etcd-snapshot", s.CronJob.Name)
	assert.Equal(t, s.CronJob.Name, s.CronJob.Spec.JobTemplate.Spec.Template.Spec.ServiceAccountName)
	assert.Equal(t, s.ServiceAccount.Name, s.RoleBinding.Subjects[0].Name)
	assert.Equal(t, s.Role.Name, s.RoleBinding.RoleRef.Name)
	for _, r := range s.Role.Rules {
		assert.Equal(t, []string{"etcd-operator.cozystack.io"}, r.APIGroups)
		assert.Equal(t, []string{"etcdsnapshots"}, r.Resources)
		for _, v := range r.Verbs {
			switch v {
			case "create":
				// RBAC cannot scope create by name.
			case "get", "list", "watch", "delete":
				assert.Equal(t, s.Slots, r.ResourceNames, "%s must be scoped to the ring", v)
			default:
				t.Errorf("unexpected verb %q", v)
			}
		}
	}
	assert.Equal(t, []rbacv1.PolicyRule{
		{APIGroups: []string{"etcd-operator.cozystack.io"}, Resources: []string{"etcdsnapshots"}, Verbs: []string{"create"}},
		{APIGroups: []string{"etcd-operator.cozystack.io"}, Resources: []string{"etcdsnapshots"}, Verbs: []string{"get", "list", "watch", "delete"}, ResourceNames: s.Slots},
	}, s.Role.Rules)

	// The manifest the script creates is a valid EtcdSnapshot for every
	// slot.
	env := map[string]string{}
	for _, e := range s.CronJob.Spec.JobTemplate.Spec.Template.Spec.Containers[0].Env {
		env[e.Name] = e.Value
	}
	assert.Equal(t, strings.Join(s.Slots, " "), env["SNAPSHOT_RING"])
	assert.Equal(t, "tenant-demo", env["NAMESPACE"])
	for _, slot := range s.Slots {
		manifest := env["SNAPSHOT_HEAD"] + slot + env["SNAPSHOT_TAIL"]
		objs, err := plan.ReadObjects([]byte(manifest))
		require.NoError(t, err)
		require.Len(t, objs, 1)
		assert.Equal(t, slot, objs[0].GetName())
		assert.Equal(t, "EtcdSnapshot", objs[0].GetObjectKind().GroupVersionKind().Kind)
		want, err := etcd.Snapshot(n, slot, s3Dest(""))
		require.NoError(t, err)
		want.Labels = map[string]string{etcd.InstanceLabel: n.Cluster, etcd.SnapshotComponentLabel: etcd.SnapshotComponent}
		p, err := plan.Compute(objs, []etcdshapes.Object{want})
		require.NoError(t, err)
		assert.True(t, p.Empty(), "%s", p)
	}
}

// Names stay within their limits for the longest cluster names.
func TestSnapshotNamesFit(t *testing.T) {
	n, err := naming.ForCluster("tenant-averyverylongtenantname-andanotherlongchild", "kubernetes-production-cluster-eu-west-1-abcdefghijk")
	require.NoError(t, err)
	require.Len(t, n.Cluster, naming.MaxClusterName)
	assert.LessOrEqual(t, len(n.SnapshotSchedule()), naming.MaxCronJobName)
	assert.Len(t, n.SnapshotSchedule(), naming.MaxCronJobName)
	assert.True(t, strings.HasSuffix(n.SnapshotSchedule(), "-snapshot"))
	assert.LessOrEqual(t, len(slot(t, n, naming.MaxSnapshotKeep-1)), naming.MaxSnapshotName)
	assert.NoError(t, naming.ValidateSnapshotName("slot", slot(t, n, naming.MaxSnapshotKeep-1)))
	// Deterministic.
	assert.Equal(t, n.SnapshotSchedule(), n.SnapshotSchedule())
	short := etcdNames(t)
	assert.Equal(t, "etcd-snapshot", short.SnapshotSchedule())
	assert.Equal(t, "etcd-snapshot-6", slot(t, short, 6))
}

func TestSnapshotFile(t *testing.T) {
	f, err := etcd.SnapshotFile(s3Dest("tenant-root/etcd/"), "etcd-snapshot-3")
	require.NoError(t, err)
	assert.Equal(t, "tenant-root/etcd/etcd-snapshot-3.db", f.S3.Key)
	assert.Equal(t, "etcd-backups", f.S3.Bucket)
	require.NoError(t, etcd.ValidateRestoreSource("source", f))

	f, err = etcd.SnapshotFile(s3Dest(""), "x")
	require.NoError(t, err)
	assert.Equal(t, "x.db", f.S3.Key)

	f, err = etcd.SnapshotFile(pvcDest("hourly"), "etcd-snapshot-0")
	require.NoError(t, err)
	assert.Equal(t, "hourly/etcd-snapshot-0.db", f.PVC.SubPath)
	f, err = etcd.SnapshotFile(pvcDest(""), "etcd-snapshot-0")
	require.NoError(t, err)
	assert.Equal(t, "etcd-snapshot-0.db", f.PVC.SubPath)
}

func TestRestore(t *testing.T) {
	n := clusterNames(t, "kubernetes-demo")
	c, err := etcd.Cluster(n, etcd.Options{})
	require.NoError(t, err)
	src, err := etcd.SnapshotFile(pvcDest("daily"), "kubernetes-demo-etcd-snapshot-2")
	require.NoError(t, err)
	require.NoError(t, etcd.Restore(src)(c))
	require.NotNil(t, c.Spec.Bootstrap)
	assert.Equal(t, "daily/kubernetes-demo-etcd-snapshot-2.db", c.Spec.Bootstrap.Restore.Source.PVC.SubPath)
	// The source is copied, not shared.
	src.PVC.SubPath = "changed"
	assert.Equal(t, "daily/kubernetes-demo-etcd-snapshot-2.db", c.Spec.Bootstrap.Restore.Source.PVC.SubPath)

	// A prefix is not a file.
	err = etcd.Restore(s3Dest("tenant-root/"))(c)
	assertField(t, err, "bootstrap.restore.source.s3.key")
	err = etcd.Restore(pvcDest(""))(c)
	assertField(t, err, "bootstrap.restore.source.pvc.subPath")

	c.Spec.Storage.Medium = v1alpha2.StorageMediumMemory
	err = etcd.Restore(src)(c)
	assertField(t, err, "bootstrap.restore")

	// Through the stack: ForKind applies it to the EtcdCluster only.
	objs, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"})
	require.NoError(t, err)
	src.PVC.SubPath = "daily/kubernetes-demo-etcd-snapshot-2.db"
	require.NoError(t, apply.Modify(objs, apply.ForKind(etcd.Restore(src))))
	out, err := etcdshapes.Marshal(objs)
	require.NoError(t, err)
	assert.Contains(t, string(out), "  bootstrap:\n    restore:\n      source:\n        pvc:\n          claimName: etcd-backups\n          subPath: daily/kubernetes-demo-etcd-snapshot-2.db\n")
}

func assertField(t *testing.T, err error, field string) {
	t.Helper()
	var ne *invalid.Error
	require.True(t, errors.As(err, &ne), "want a invalid.Error for %s, got %v", field, err)
	assert.Equal(t, field, ne.Field, "%v", err)
}

func TestSnapshotValidation(t *testing.T) {
	n := etcdNames(t)
	s3 := func(edit func(*v1alpha2.S3Location)) v1alpha2.SnapshotLocation {
		d := s3Dest("")
		edit(d.S3)
		return d
	}
	for _, tc := range []struct {
		name, snap string
		dest       v1alpha2.SnapshotLocation
		field      string
	}{
		{"bad name", "Before_Upgrade", s3Dest(""), "name"},
		{"long name", strings.Repeat("a", 64), s3Dest(""), "name"},
		{"no destination", "x", v1alpha2.SnapshotLocation{}, "destination"},
		{"both", "x", v1alpha2.SnapshotLocation{S3: s3Dest("").S3, PVC: pvcDest("").PVC}, "destination"},
		{"no endpoint", "x", s3(func(s *v1alpha2.S3Location) { s.Endpoint = "" }), "destination.s3.endpoint"},
		{"endpoint not a URL", "x", s3(func(s *v1alpha2.S3Location) { s.Endpoint = "minio:9000" }), "destination.s3.endpoint"},
		{"endpoint credentials", "x", s3(func(s *v1alpha2.S3Location) { s.Endpoint = "https://key:secret@s3.example.com" }), "destination.s3.endpoint"},
		{"bucket", "x", s3(func(s *v1alpha2.S3Location) { s.Bucket = "Etcd_Backups" }), "destination.s3.bucket"},
		{"short bucket", "x", s3(func(s *v1alpha2.S3Location) { s.Bucket = "ab" }), "destination.s3.bucket"},
		{"region", "x", s3(func(s *v1alpha2.S3Location) { s.Region = "us east" }), "destination.s3.region"},
		{"no credentials", "x", s3(func(s *v1alpha2.S3Location) { s.CredentialsSecretRef.Name = "" }), "destination.s3.credentialsSecretRef.name"},
		{"prefix without slash", "x", s3Dest("backups"), "destination.s3.key"},
		{"absolute prefix", "x", s3Dest("/backups/"), "destination.s3.key"},
		{"dot-dot prefix", "x", s3Dest("a/../b/"), "destination.s3.key"},
		{"double slash", "x", s3Dest("a//b/"), "destination.s3.key"},
		{"no claim", "x", pvcDest("a"), ""},
		{"absolute subPath", "x", pvcDest("/data"), "destination.pvc.subPath"},
		{"escaping subPath", "x", pvcDest("../other"), "destination.pvc.subPath"},
		{"bad claim", "x", v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "Bad"}}, "destination.pvc.claimName"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := etcd.Snapshot(n, tc.snap, tc.dest)
			if tc.field == "" {
				require.NoError(t, err)
				return
			}
			assertField(t, err, tc.field)
		})
	}
}

func TestScheduleValidation(t *testing.T) {
	n := etcdNames(t)
	for _, s := range []string{"0 3 * * *", "*/15 * * * *", "0 0 1,15 * *", "0 22 * * 1-5", "0 0 ? * SUN", "5/10 * * * *", "@daily", "@hourly", "@weekly", "@yearly", "@annually", "@monthly", "@midnight",
		// February 29 fires in leap years; a day of week as well as a
		// day of month fires on either (as in Vixie cron).
		"0 0 29 2 *", "0 0 30 2 1", "0 0 31 */2 *", " 0 3 * * * ", "0 0 31 jan-dec *"} {
		_, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: s, Destination: pvcDest("")})
		assert.NoError(t, err, s)
	}
	for _, s := range []string{"", "0 3 * *", "60 * * * *", "0 24 * * *", "0 0 0 * *", "0 0 * 13 *", "0 0 * * 7", "*/0 * * * *", "5-1 * * * *", "@every 1h", "@often", "TZ=UTC 0 3 * * *", "0 0 * * mon-xyz",
		// The API server refuses "TZ" anywhere; the parser would read the
		// system's time zone files, and panics on "TZ=0".
		"CRON_TZ=Europe/Berlin 0 3 * * *", "TZ=0", "0 3 * * * TZ", "@DAILY", "0 3 * * *\n", "0\t3 * * *", "0 3 * * *\u00a0",
		// Schedules the parser accepts that never fire.
		"0 3 30 2 *", "0 0 31 4 *", "0 0 31 2,4,6,9,11 *", "59 23 31 2 *", "0 0 30,31 2 *"} {
		_, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: s, Destination: pvcDest("")})
		assertField(t, err, "schedule")
	}
	for _, keep := range []int{-1, naming.MaxSnapshotKeep + 1} {
		_, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "@daily", Keep: keep, Destination: pvcDest("")})
		assertField(t, err, "keep")
	}
	s, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "@daily", Destination: pvcDest("")})
	require.NoError(t, err)
	assert.Len(t, s.Slots, etcd.DefaultSnapshotKeep)
	_, err = etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "@daily", Destination: s3Dest("no-slash")})
	assertField(t, err, "destination.s3.key")
}

func asRuntime(objs []manifest.Object) []runtime.Object {
	out := make([]runtime.Object, len(objs))
	for i, o := range objs {
		out[i] = o
	}
	return out
}

// TestSnapshotPathRules: each rule of an S3 key and of a PVC sub-path, as
// a destination (a prefix or directory) and as a restore source (the exact
// file); a path breaks at most one, the first in this order.
func TestSnapshotPathRules(t *testing.T) {
	// One byte over S3's 1024 with "<snapshot>.db" appended.
	maxKey := 1024 - naming.MaxSnapshotName - len(etcd.SnapshotFileSuffix)
	long := strings.Repeat("k", maxKey) + "/"
	tooLong := invalid.FormatValue(long) + ": must be at most " + strconv.Itoa(maxKey) + ` bytes, so that with the "<snapshot>.db" the operator appends (a snapshot name of up to 63 characters) the file's path is at most 1024`
	notFile := `: must name a file, not end in "/"`
	// A PVC directory of 957 bytes in segments of 255 (NAME_MAX), and
	// one byte more; an exact key and file path of 1024 bytes, and 1025.
	dir957 := strings.Repeat(strings.Repeat("d", 255)+"/", 3) + strings.Repeat("d", 957-3*256)
	file := func(n int) string { return strings.Repeat(strings.Repeat("f", 254)+"/", 5)[:n-3] + ".db" }
	segment := strings.Repeat("s", 256)
	for _, c := range []struct {
		dest func(string) v1alpha2.SnapshotLocation
		path string
		// destination and source are the errors, "" for none.
		destination, source string
	}{
		{s3Dest, "", "", `source.s3.key: invalid value "": must be the exact object key of the snapshot file (e.g. "etcd/<snapshot>.db")`},
		{s3Dest, long, "destination.s3.key: invalid value " + tooLong, "source.s3.key: invalid value " + invalid.FormatValue(long) + notFile},
		{s3Dest, file(1024), "destination.s3.key: invalid value " + invalid.FormatValue(file(1024)) + ": must be at most 958 bytes, so that with the \"<snapshot>.db\" the operator appends (a snapshot name of up to 63 characters) the file's path is at most 1024", ""},
		{s3Dest, file(1025), "destination.s3.key: invalid value " + invalid.FormatValue(file(1025)) + ": must be at most 958 bytes, so that with the \"<snapshot>.db\" the operator appends (a snapshot name of up to 63 characters) the file's path is at most 1024", "source.s3.key: invalid value " + invalid.FormatValue(file(1025)) + ": must be at most 1024 bytes"},
		{pvcDest, dir957, "", ""},
		{pvcDest, dir957 + "d", "destination.pvc.subPath: invalid value " + invalid.FormatValue(dir957+"d") + ": must be at most 957 bytes, so that with the \"<snapshot>.db\" the operator appends (a snapshot name of up to 63 characters) the file's path is at most 1024", ""},
		{pvcDest, file(1024), "destination.pvc.subPath: invalid value " + invalid.FormatValue(file(1024)) + ": must be at most 957 bytes, so that with the \"<snapshot>.db\" the operator appends (a snapshot name of up to 63 characters) the file's path is at most 1024", ""},
		{pvcDest, file(1025), "destination.pvc.subPath: invalid value " + invalid.FormatValue(file(1025)) + ": must be at most 957 bytes, so that with the \"<snapshot>.db\" the operator appends (a snapshot name of up to 63 characters) the file's path is at most 1024", "source.pvc.subPath: invalid value " + invalid.FormatValue(file(1025)) + ": must be at most 1024 bytes"},
		{pvcDest, "a/" + segment, "destination.pvc.subPath: invalid value " + invalid.FormatValue("a/"+segment) + ": must have path segments of at most 255 bytes (Linux's NAME_MAX: a longer file or directory name is refused with ENAMETOOLONG)", "source.pvc.subPath: invalid value " + invalid.FormatValue("a/"+segment) + ": must have path segments of at most 255 bytes (Linux's NAME_MAX: a longer file or directory name is refused with ENAMETOOLONG)"},
		{s3Dest, "/etcd/", `destination.s3.key: invalid value "/etcd/": must not start with "/"`, `source.s3.key: invalid value "/etcd/": must not start with "/"`},
		{s3Dest, "etcd", `destination.s3.key: invalid value "etcd": must be a prefix ending in "/" (the operator appends "<snapshot>.db")`, ""},
		{s3Dest, "etcd/", "", `source.s3.key: invalid value "etcd/": must name a file, not end in "/"`},
		{s3Dest, "a//b/", `destination.s3.key: invalid value "a//b/": must not contain empty, "." or ".." path segments`, `source.s3.key: invalid value "a//b/": must name a file, not end in "/"`},
		{s3Dest, "a/../b.db", `destination.s3.key: invalid value "a/../b.db": must be a prefix ending in "/" (the operator appends "<snapshot>.db")`, `source.s3.key: invalid value "a/../b.db": must not contain empty, "." or ".." path segments`},
		{s3Dest, "a\x01/", `destination.s3.key: invalid value "a\x01/": must be valid UTF-8 without control, format or line separator characters (it holds U+0001): etcd-operator writes the snapshot under this path, and restore must name it byte for byte`, `source.s3.key: invalid value "a\x01/": must name a file, not end in "/"`},
		{pvcDest, "", "", `source.pvc.subPath: invalid value "": must be the exact path of the snapshot file on the volume (e.g. "etcd/<snapshot>.db")`},
		{pvcDest, long, "destination.pvc.subPath: invalid value " + invalid.FormatValue(long) + ": must be at most 957 bytes, so that with the \"<snapshot>.db\" the operator appends (a snapshot name of up to 63 characters) the file's path is at most 1024", "source.pvc.subPath: invalid value " + invalid.FormatValue(long) + notFile},
		{pvcDest, "/etcd", `destination.pvc.subPath: invalid value "/etcd": must be relative to the volume`, `source.pvc.subPath: invalid value "/etcd": must be relative to the volume`},
		{pvcDest, "etcd", "", ""},
		{pvcDest, "etcd/", "", `source.pvc.subPath: invalid value "etcd/": must name a file, not end in "/"`},
		{pvcDest, "./a.db", `destination.pvc.subPath: invalid value "./a.db": must not contain empty, "." or ".." path segments`, `source.pvc.subPath: invalid value "./a.db": must not contain empty, "." or ".." path segments`},
		{pvcDest, "a\x7f.db", `destination.pvc.subPath: invalid value "a\x7f.db": must be valid UTF-8 without control, format or line separator characters (it holds U+007F): etcd-operator writes the snapshot under this path, and restore must name it byte for byte`, `source.pvc.subPath: invalid value "a\x7f.db": must be valid UTF-8 without control, format or line separator characters (it holds U+007F): etcd-operator writes the snapshot under this path, and restore must name it byte for byte`},
	} {
		for _, v := range []struct {
			err  error
			want string
		}{
			{etcd.ValidateSnapshotDestination("destination", c.dest(c.path)), c.destination},
			{etcd.ValidateRestoreSource("source", c.dest(c.path)), c.source},
		} {
			if v.want == "" {
				require.NoError(t, v.err, "%q", c.path)
				continue
			}
			require.EqualError(t, v.err, v.want, "%q", c.path)
		}
	}
}

// TestNewestSnapshot (B3): the snapshot to restore from is the newest of
// the cluster's that completed, whatever else the live list holds: newer
// ones that failed, are pending, running or have no status yet, newer
// ones being deleted, newer complete ones of another cluster or
// namespace, ties within a second (the greater name, for a result that
// does not depend on the list's order), a schedule's ring whose slot 0 is
// not the newest. Without one, the error names the phases it found.
func TestNewestSnapshot(t *testing.T) {
	n := clusterNames(t, "kubernetes-demo")
	other := clusterNames(t, "kubernetes-other")
	at := func(n naming.Names, name string, day, sec int, phase string) v1alpha2.EtcdSnapshot {
		s, err := etcd.Snapshot(n, name, s3Dest("daily/"))
		require.NoError(t, err)
		s.CreationTimestamp = metav1.Date(2026, 12, day, 3, 0, sec, 0, time.UTC)
		if phase != "" {
			s.Status = &v1alpha2.EtcdSnapshotStatus{Phase: phase}
		}
		return *s
	}
	deleting := func(s v1alpha2.EtcdSnapshot) v1alpha2.EtcdSnapshot {
		now := metav1.Date(2026, 12, 9, 0, 0, 0, 0, time.UTC)
		s.DeletionTimestamp = &now
		return s
	}
	elsewhere := func(s v1alpha2.EtcdSnapshot) v1alpha2.EtcdSnapshot { s.Namespace = "tenant-other"; return s }
	noNamespace := func(s v1alpha2.EtcdSnapshot) v1alpha2.EtcdSnapshot { s.Namespace = ""; return s }
	good := at(n, "good", 1, 0, v1alpha2.SnapshotPhaseComplete)
	for _, c := range []struct {
		name string
		live []v1alpha2.EtcdSnapshot
		want string
	}{
		{"newer ones failed", []v1alpha2.EtcdSnapshot{at(n, "f2", 3, 0, v1alpha2.SnapshotPhaseFailed), good, at(n, "f1", 2, 0, v1alpha2.SnapshotPhaseFailed)}, "good"},
		{"newer ones pending, started, without status", []v1alpha2.EtcdSnapshot{good, at(n, "p", 2, 0, v1alpha2.SnapshotPhasePending), at(n, "s", 3, 0, v1alpha2.SnapshotPhaseStarted), at(n, "none", 4, 0, "")}, "good"},
		{"a newer one being deleted", []v1alpha2.EtcdSnapshot{deleting(at(n, "going", 2, 0, v1alpha2.SnapshotPhaseComplete)), good}, "good"},
		{"a newer one of another cluster", []v1alpha2.EtcdSnapshot{at(other, "theirs", 2, 0, v1alpha2.SnapshotPhaseComplete), good}, "good"},
		{"a newer one in another namespace", []v1alpha2.EtcdSnapshot{elsewhere(at(n, "there", 2, 0, v1alpha2.SnapshotPhaseComplete)), good}, "good"},
		{"the newest of several complete", []v1alpha2.EtcdSnapshot{good, at(n, "later", 1, 1, v1alpha2.SnapshotPhaseComplete), at(n, "earlier", 0, 59, v1alpha2.SnapshotPhaseComplete)}, "later"},
		{"a tie within a second, either order", []v1alpha2.EtcdSnapshot{at(n, "b", 2, 0, v1alpha2.SnapshotPhaseComplete), at(n, "a", 2, 0, v1alpha2.SnapshotPhaseComplete)}, "b"},
		{"a tie within a second, the other order", []v1alpha2.EtcdSnapshot{at(n, "a", 2, 0, v1alpha2.SnapshotPhaseComplete), at(n, "b", 2, 0, v1alpha2.SnapshotPhaseComplete)}, "b"},
		{"a ring whose slot 0 came round and failed", []v1alpha2.EtcdSnapshot{at(n, slot(t, n, 0), 4, 0, v1alpha2.SnapshotPhaseFailed), at(n, slot(t, n, 1), 2, 0, v1alpha2.SnapshotPhaseComplete), at(n, slot(t, n, 2), 3, 0, v1alpha2.SnapshotPhaseComplete)}, slot(t, n, 2)},
		{"without a namespace: the cluster's", []v1alpha2.EtcdSnapshot{noNamespace(at(n, "bare", 2, 0, v1alpha2.SnapshotPhaseComplete)), good}, "bare"},
	} {
		t.Run(c.name, func(t *testing.T) {
			got, err := etcd.NewestSnapshot(n, c.live)
			require.NoError(t, err)
			require.Equal(t, c.want, got.Name)
			src, err := etcd.SnapshotSource(got)
			require.NoError(t, err)
			require.Equal(t, "daily/"+c.want+".db", src.S3.Key)
		})
	}
	for _, c := range []struct {
		name string
		live []v1alpha2.EtcdSnapshot
		rule string
	}{
		{"none", nil, "hold no EtcdSnapshot of cluster tenant-demo/kubernetes-demo-etcd"},
		{"only other clusters'", []v1alpha2.EtcdSnapshot{at(other, "theirs", 2, 0, v1alpha2.SnapshotPhaseComplete)}, "hold no EtcdSnapshot of cluster tenant-demo/kubernetes-demo-etcd"},
		{"none completed", []v1alpha2.EtcdSnapshot{at(n, "f", 2, 0, v1alpha2.SnapshotPhaseFailed), at(n, "f2", 3, 0, v1alpha2.SnapshotPhaseFailed), at(n, "p", 3, 0, ""), deleting(at(n, "d", 1, 0, v1alpha2.SnapshotPhaseComplete))},
			"that completed (2 Failed, 1 no phase yet, 1 being deleted): there is nothing to restore from"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := etcd.NewestSnapshot(n, c.live)
			assertField(t, err, "snapshots")
			require.ErrorContains(t, err, c.rule)
		})
	}
	// Bad names are refused, not searched.
	_, err := etcd.NewestSnapshot(naming.Names{}, []v1alpha2.EtcdSnapshot{good})
	require.Error(t, err)
	// SnapshotSource refuses what has not succeeded.
	for _, s := range []*v1alpha2.EtcdSnapshot{nil, ptr.To(at(n, "f", 2, 0, v1alpha2.SnapshotPhaseFailed)), ptr.To(at(n, "none", 2, 0, "")), ptr.To(deleting(good))} {
		_, err := etcd.SnapshotSource(s)
		require.Error(t, err)
		var ne *invalid.Error
		require.ErrorAs(t, err, &ne)
		require.Contains(t, []string{"snapshot", "snapshot.status.phase"}, ne.Field)
	}
}

// slot is n's snapshot slot i, which the test expects to be valid.
func slot(t testing.TB, n naming.Names, i int) string {
	t.Helper()
	s, err := n.SnapshotSlot(i)
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// TestSnapshotNotOnMemberVolumes: a PVC destination that is an etcd
// member's data volume is refused by both builders, for both callers: the
// cluster's own (any member suffix) and another stack's in the namespace
// ("data-etcd-<i>", "data-<release>-etcd-<i>"); PVCs of their own pass,
// those that merely look alike included.
func TestSnapshotNotOnMemberVolumes(t *testing.T) {
	cluster, shared := clusterNames(t, "kubernetes-demo"), etcdNames(t)
	pvc := func(claim string) v1alpha2.SnapshotLocation {
		return v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: claim, SubPath: "snaps"}}
	}
	for _, c := range []struct {
		n       naming.Names
		claim   string
		refused bool
	}{
		{cluster, "data-kubernetes-demo-etcd-0", true},
		{cluster, "data-kubernetes-demo-etcd-2", true},
		{cluster, "data-kubernetes-demo-etcd-lhm7w", true},
		{cluster, "data-etcd-0", true},
		{cluster, "data-kubernetes-other-etcd-12", true},
		{shared, "data-etcd-1", true},
		{shared, "data-etcd-x7k2q", true},
		{shared, "data-kubernetes-a-etcd-0", true},
		{cluster, "etcd-backups", false},
		{cluster, "data-backups-0", false},
		{cluster, "data-etcd-backups", false},
		{cluster, "data-kubernetes-demo-etcd", false},
		{shared, "backup-data-etcd-0", false},
		{shared, "data-etcd-", true}, // not a name: refused once, as that
	} {
		_, err := etcd.Snapshot(c.n, "before-upgrade", pvc(c.claim))
		_, serr := etcd.ScheduledSnapshots(c.n, etcd.SnapshotScheduleOptions{Schedule: "0 3 * * *", Destination: pvc(c.claim)})
		for _, e := range []error{err, serr} {
			if c.claim == "data-etcd-" {
				assert.Len(t, invalid.All(e), 1, "%v", e)
				continue
			}
			if c.refused {
				assertField(t, e, "destination.pvc.claimName")
				assert.ErrorContains(t, e, "is an etcd member's data volume", c.claim)
			} else {
				assert.NoError(t, e, "%s for %s", c.claim, c.n.Cluster)
			}
		}
	}
}

// TestSnapshotNotInTheRing: a one-off snapshot named as a slot of the
// cluster's schedule ring is refused (the schedule would replace it);
// other names pass (the CLI's test: render snapshot --name).
func TestSnapshotNotInTheRing(t *testing.T) {
	for _, n := range []naming.Names{clusterNames(t, "kubernetes-demo"), etcdNames(t)} {
		slot, err := n.SnapshotSlot(3)
		require.NoError(t, err)
		for _, name := range []string{slot, n.SnapshotSchedule() + "-0", n.SnapshotSchedule() + "-99", n.SnapshotSchedule() + "-123"} {
			assertField(t, etcd.ValidateOneOffSnapshotName(n, name), "name")
		}
		for _, name := range []string{"before-upgrade", n.SnapshotSchedule() + "-manual", n.SnapshotSchedule()} {
			assert.NoError(t, etcd.ValidateOneOffSnapshotName(n, name), name)
		}
	}
}

// TestRestoreNotFromMemberVolumes: a restore source on an etcd member's
// data volume is refused; a PVC of its own passes.
func TestRestoreNotFromMemberVolumes(t *testing.T) {
	src := func(claim string) v1alpha2.SnapshotLocation {
		return v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: claim, SubPath: "x.db"}}
	}
	for _, claim := range []string{"data-kubernetes-demo-etcd-0", "data-etcd-2"} {
		assertField(t, etcd.Restore(src(claim))(&v1alpha2.EtcdCluster{}), "bootstrap.restore.source.pvc.claimName")
		assertField(t, etcd.ValidateRestoreSource("source", src(claim)), "source.pvc.claimName")
	}
	require.NoError(t, etcd.Restore(src("etcd-backups"))(&v1alpha2.EtcdCluster{}))
}
