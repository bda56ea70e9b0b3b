package main

import (
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/apply"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// testSnap is one EtcdSnapshot of a --restore-from file; cluster "" is
// the stack's.
type testSnap struct{ name, cluster, phase, created string }

func snap(name, cluster, phase, created string) testSnap {
	return testSnap{name, cluster, phase, created}
}

// restoreStack is the namespace, release and cluster of a caller's stack
// in these tests ("etcd" or "cluster").
func restoreStack(caller string) (ns, cluster string, args []string) {
	if caller == "etcd" {
		return "tenant-root", "etcd", []string{"etcd", "-n", "tenant-root"}
	}
	return "tenant-demo", "kubernetes-demo-etcd", []string{"cluster", "kubernetes-demo", "-n", "tenant-demo"}
}

// typed is s as etcd-operator serves it, in the namespace ns, its cluster
// the stack's when s names none.
func (s testSnap) typed(ns, cluster string) v1alpha2.EtcdSnapshot {
	if s.cluster != "" {
		cluster = s.cluster
	}
	ts, err := time.Parse(time.RFC3339, s.created)
	if err != nil {
		panic(err)
	}
	out := v1alpha2.EtcdSnapshot{
		TypeMeta:   metav1.TypeMeta{APIVersion: v1alpha2.APIVersion, Kind: "EtcdSnapshot"},
		ObjectMeta: metav1.ObjectMeta{Name: s.name, Namespace: ns, CreationTimestamp: metav1.NewTime(ts)},
		Spec: v1alpha2.EtcdSnapshotSpec{
			ClusterRef: corev1LocalRef(cluster),
			Destination: v1alpha2.SnapshotLocation{S3: &v1alpha2.S3Location{
				Endpoint: "https://s3.example.com", Bucket: "backups", Key: cluster + "/",
				CredentialsSecretRef: corev1LocalRef("s3-creds"),
			}},
		},
	}
	if s.phase != "" {
		out.Status = &v1alpha2.EtcdSnapshotStatus{Phase: s.phase}
	}
	return out
}

func corev1LocalRef(name string) corev1.LocalObjectReference {
	return corev1.LocalObjectReference{Name: name}
}

// snapshotsOf is a --restore-from file of the caller's namespace: a List
// as 'kubectl get etcdsnapshots -o yaml' prints it (JSON is YAML).
func snapshotsOf(caller string, snaps ...testSnap) string {
	ns, cluster, _ := restoreStack(caller)
	items := make([]map[string]any, len(snaps))
	for i, s := range snaps {
		t := s.typed(ns, cluster)
		m, err := runtime.DefaultUnstructuredConverter.ToUnstructured(&t)
		if err != nil {
			panic(err)
		}
		items[i] = m
	}
	b, err := json.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items})
	if err != nil {
		panic(err)
	}
	return string(b) + "\n"
}

// restoreSource is etcd.SnapshotSource of s, the file the EtcdCluster
// must bootstrap from.
func restoreSource(t *testing.T, caller string, s testSnap) v1alpha2.SnapshotLocation {
	t.Helper()
	ns, cluster, _ := restoreStack(caller)
	typed := s.typed(ns, cluster)
	src, err := etcd.SnapshotSource(&typed)
	require.NoError(t, err)
	return src
}

// renderedCluster is the EtcdCluster of a render's output, and the other
// objects as YAML.
func renderedCluster(t *testing.T, out string) (*v1alpha2.EtcdCluster, []string) {
	t.Helper()
	objs, err := plan.ReadObjects([]byte(out))
	require.NoError(t, err)
	var ec *v1alpha2.EtcdCluster
	var rest []string
	for _, o := range objs {
		if o.GetObjectKind().GroupVersionKind().Kind == "EtcdCluster" {
			require.Nil(t, ec, "two EtcdClusters")
			b, err := json.Marshal(o)
			require.NoError(t, err)
			ec = &v1alpha2.EtcdCluster{}
			require.NoError(t, json.Unmarshal(b, ec))
			continue
		}
		b, err := json.Marshal(o)
		require.NoError(t, err)
		rest = append(rest, string(b))
	}
	require.NotNil(t, ec, "no EtcdCluster in\n%s", out)
	return ec, rest
}

var (
	snapOld     = snap("nightly-0", "", "Complete", "2025-01-01T00:00:00Z")
	snapNewest  = snap("nightly-1", "", "Complete", "2025-01-02T00:00:00Z")
	snapFailed  = snap("nightly-2", "", "Failed", "2025-01-03T00:00:00Z")
	snapRunning = snap("now", "", "Running", "2025-01-04T00:00:00Z")
	// Another cluster's, newer and Complete: never the one.
	snapOther = snap("other-0", "kubernetes-other-etcd", "Complete", "2025-01-05T00:00:00Z")
)

// TestRenderRestoreFrom: render --restore-from seeds the stack's
// EtcdCluster, and nothing else, from the newest Complete snapshot of its
// cluster (etcd.NewestSnapshot, etcd.SnapshotSource); --restore-snapshot
// from the one it names; from stdin too.
func TestRenderRestoreFrom(t *testing.T) {
	for _, caller := range []string{"etcd", "cluster"} {
		t.Run(caller, func(t *testing.T) {
			_, _, args := restoreStack(caller)
			file := writeTemp(t, []byte(snapshotsOf(caller, snapOld, snapNewest, snapFailed, snapRunning, snapOther)))
			code, plain, stderr := cli(t, "", append([]string{"render"}, args...)...)
			require.Equal(t, 0, code, stderr)
			plainEC, plainRest := renderedCluster(t, plain)
			require.Nil(t, plainEC.Spec.Bootstrap)

			for _, tc := range []struct {
				name  string
				extra []string
				stdin string
				want  testSnap
			}{
				{"newest Complete", []string{"--restore-from", file}, "", snapNewest},
				{"named", []string{"--restore-from", file, "--restore-snapshot", snapOld.name}, "", snapOld},
				{"stdin", []string{"--restore-from", "-"}, snapshotsOf(caller, snapOld, snapNewest), snapNewest},
			} {
				t.Run(tc.name, func(t *testing.T) {
					code, out, stderr := cli(t, tc.stdin, append(append([]string{"render"}, args...), tc.extra...)...)
					require.Equal(t, 0, code, stderr)
					ec, rest := renderedCluster(t, out)
					require.NotNil(t, ec.Spec.Bootstrap)
					require.NotNil(t, ec.Spec.Bootstrap.Restore)
					assert.Equal(t, restoreSource(t, caller, tc.want), ec.Spec.Bootstrap.Restore.Source)
					// Only the EtcdCluster changes, and in it only its
					// bootstrap.
					assert.Equal(t, plainRest, rest)
					ec.Spec.Bootstrap = nil
					assert.Equal(t, plainEC, ec)
					assert.Contains(t, stderr, "etcdshapes: restoring EtcdCluster ")
					assert.Contains(t, stderr, " from EtcdSnapshot "+tc.want.name+" (Complete, created ")
				})
			}
		})
	}
}

// TestRestoreRefusals: every --restore-from or --restore-snapshot that
// cannot be restored from is refused (exit 1, nothing on stdout), naming
// the flag and its value: no Complete snapshot (the phases named), a
// named snapshot absent, not Complete or another cluster's, and hostile
// or wrong files.
func TestRestoreRefusals(t *testing.T) {
	liveRender := func(t *testing.T) string {
		_, _, args := restoreStack("cluster")
		code, out, stderr := cli(t, "", append([]string{"render"}, args...)...)
		require.Equal(t, 0, code, stderr)
		return out
	}
	file := func(t *testing.T, s string) string { return writeTemp(t, []byte(s)) }
	snapDoc := func(extra string) string {
		return "apiVersion: etcd-operator.cozystack.io/v1alpha2\nkind: EtcdSnapshot\nmetadata: {name: nightly-0, namespace: tenant-demo}\n" + extra
	}
	for _, tc := range []struct {
		name  string
		path  func(t *testing.T) string
		extra []string
		code  int
		want  []string // what stderr holds; %s is the path
	}{
		{"no Complete snapshot", func(t *testing.T) string {
			return file(t, snapshotsOf("cluster", snapFailed, snapRunning, snap("now-2", "", "Running", "2025-01-04T01:00:00Z"), snap("new", "", "", "2025-01-06T00:00:00Z")))
		}, nil, exitError, []string{`etcdshapes: --restore-from %s: snapshots: invalid value "4 snapshots": hold no EtcdSnapshot of cluster tenant-demo/kubernetes-demo-etcd that completed (1 Failed, 2 Running, 1 no phase yet): there is nothing to restore from`}},
		{"empty file", func(t *testing.T) string { return file(t, "") }, nil, exitError,
			[]string{`etcdshapes: --restore-from %s: snapshots: invalid value "0 snapshots": hold no EtcdSnapshot of cluster tenant-demo/kubernetes-demo-etcd`}},
		{"empty List", func(t *testing.T) string { return file(t, "apiVersion: v1\nkind: List\nitems: []\n") }, nil, exitError,
			[]string{`"0 snapshots": hold no EtcdSnapshot of cluster tenant-demo/kubernetes-demo-etcd`}},
		{"/dev/zero", func(t *testing.T) string { return "/dev/zero" }, nil, exitError,
			[]string{`etcdshapes: --restore-from: invalid value "%s": is larger than 67108864 bytes (64 MiB), the limit for a live file`}},
		{"another cluster's snapshots only", func(t *testing.T) string { return file(t, snapshotsOf("cluster", snapOther)) }, nil, exitError,
			[]string{`etcdshapes: --restore-from: invalid value "%s": holds 1 EtcdSnapshot, all of other clusters (tenant-demo/kubernetes-other-etcd), none of the stack's EtcdCluster tenant-demo/kubernetes-demo-etcd`}},
		{"another namespace's snapshots only", func(t *testing.T) string { return file(t, snapshotsOf("etcd", snapNewest)) }, nil, exitError,
			[]string{`holds 1 EtcdSnapshot, all of other clusters (tenant-root/etcd), none of the stack's EtcdCluster tenant-demo/kubernetes-demo-etcd: give it the snapshots of namespace tenant-demo`}},
		{"the live file, not the snapshots", func(t *testing.T) string { return file(t, liveRender(t)) }, nil, exitError,
			[]string{`etcdshapes: --restore-from: invalid value "%s": holds CronJob tenant-demo/kubernetes-demo-etcd-defrag (object 1 of the file), not an EtcdSnapshot (etcd-operator.cozystack.io/v1alpha2)`}},
		{"a snapshot among other kinds", func(t *testing.T) string {
			return file(t, snapshotsOf("cluster", snapNewest)+"---\napiVersion: v1\nkind: Secret\nmetadata: {name: s3-creds, namespace: tenant-demo}\n")
		}, nil, exitError, []string{`holds Secret tenant-demo/s3-creds (object 2 of the file), not an EtcdSnapshot`}},
		{"another version", func(t *testing.T) string {
			return file(t, strings.Replace(snapDoc("spec: {}\n"), "v1alpha2", "v1alpha1", 1))
		}, nil, exitError, []string{`holds EtcdSnapshot tenant-demo/nightly-0 (object 1 of the file) of etcd-operator.cozystack.io/v1alpha1, not of etcd-operator.cozystack.io/v1alpha2`}},
		{"a malformed reference", func(t *testing.T) string { return file(t, snapDoc("spec: {clusterRef: [x]}\n")) }, nil, exitError,
			[]string{`etcdshapes: --restore-from %s: live[0].spec.clusterRef: invalid value [x]: must be an object (a map)`}},
		{"a malformed status", func(t *testing.T) string { return file(t, snapDoc("spec: {}\nstatus: {phase: [Complete]}\n")) }, nil, exitError,
			[]string{`etcdshapes: --restore-from: invalid value "%s": holds EtcdSnapshot tenant-demo/nightly-0 (object 1 of the file), which is not an EtcdSnapshot as etcd-operator serves it`}},
		{"a key twice", func(t *testing.T) string { return file(t, snapDoc("spec: {}\nspec: {}\n")) }, nil, exitError,
			[]string{`etcdshapes: --restore-from %s: live[0].spec: invalid value "spec": `}},
		{"a missing file", func(t *testing.T) string { return "/nonexistent/snaps.yaml" }, nil, exitError, []string{`--restore-from`, `/nonexistent/snaps.yaml`}},
		{"named, absent", func(t *testing.T) string { return file(t, snapshotsOf("cluster", snapOld, snapNewest)) }, []string{"--restore-snapshot", "nope"}, exitError,
			[]string{`etcdshapes: --restore-snapshot: invalid value "nope": is not in --restore-from %s, which holds the EtcdSnapshots nightly-0, nightly-1`}},
		{"named, Failed", func(t *testing.T) string { return file(t, snapshotsOf("cluster", snapNewest, snapFailed)) }, []string{"--restore-snapshot", snapFailed.name}, exitError,
			[]string{`etcdshapes: --restore-snapshot nightly-2: snapshot.status.phase: invalid value "Failed": must be Complete to restore from`}},
		{"named, another cluster's", func(t *testing.T) string { return file(t, snapshotsOf("cluster", snapNewest, snapOther)) }, []string{"--restore-snapshot", snapOther.name}, exitError,
			[]string{`etcdshapes: --restore-snapshot: invalid value "other-0": is a snapshot of EtcdCluster "kubernetes-other-etcd", not of the stack's tenant-demo/kubernetes-demo-etcd`}},
		{"named, without --restore-from", nil, []string{"--restore-snapshot", snapOld.name}, exitUsage,
			[]string{`etcdshapes: --restore-snapshot "nightly-0" needs --restore-from FILE`}},
		{"no EtcdCluster to restore into", func(t *testing.T) string { return file(t, snapshotsOf("cluster", snapNewest)) }, []string{"--live-datastore", "tenant-root"}, exitError,
			[]string{`etcdshapes: --restore-from: invalid value "%s": the render holds no EtcdCluster to restore into (the cluster stays on the shared datastore "tenant-root")`}},
		{"stdin twice", func(t *testing.T) string { return "-" }, []string{"-f", "-"}, exitUsage,
			[]string{`etcdshapes: stdin ("-") can be read by one input only, not by --restore-from and -f`}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, _, args := restoreStack("cluster")
			path := ""
			if tc.path != nil {
				path = tc.path(t)
				args = append(args, "--restore-from", path)
			}
			for _, cmd := range []string{"render", "plan"} {
				line := append(append([]string{cmd}, args...), tc.extra...)
				if cmd == "plan" {
					line = append(line, "--live", os.DevNull)
				}
				code, stdout, stderr := cli(t, "", line...)
				require.Equal(t, tc.code, code, "%q: %s", line, stderr)
				assert.Empty(t, stdout)
				for _, w := range tc.want {
					if strings.Contains(w, "%s") {
						w = fmt.Sprintf(w, path)
					}
					assert.Contains(t, stderr, w, "%q", line)
				}
			}
		})
	}
}

// TestPlanRestoreFrom: plan --restore-from plans the restore (its
// desired EtcdCluster bootstraps from the newest Complete snapshot) and
// prints, in text and in JSON, the render command that renders what it
// planned: with the restore flags, the snapshot it chose pinned, so that
// a snapshot completed since, in the file fetched again, changes nothing.
// With the EtcdCluster deleted (the procedure's step 3), its create is a
// decision; with it live, the bootstrap is refused, and stderr says why.
func TestPlanRestoreFrom(t *testing.T) {
	for _, caller := range []string{"etcd", "cluster"} {
		t.Run(caller, func(t *testing.T) {
			_, _, args := restoreStack(caller)
			snaps := writeTemp(t, []byte(snapshotsOf(caller, snapOld, snapNewest, snapFailed)))
			code, full, stderr := cli(t, "", append([]string{"render"}, args...)...)
			require.Equal(t, 0, code, stderr)
			var docs []string
			for _, d := range strings.Split(full, "\n---\n") {
				if !strings.Contains(d, "\nkind: EtcdCluster\n") {
					docs = append(docs, d)
				}
			}
			deleted := writeTemp(t, []byte(strings.Join(docs, "\n---\n")))
			liveFull := writeTemp(t, []byte(full))

			// The EtcdCluster deleted: the create is the restore.
			withFlags := append(append([]string{}, args...), "--restore-from", snaps, "--live", deleted)
			code, text, stderr := cli(t, "", append([]string{"plan"}, withFlags...)...)
			require.Equal(t, exitUnsafe, code, stderr)
			assert.Contains(t, text, "+ create EtcdCluster ")
			assert.Contains(t, text, "note spec.bootstrap.restore: the new cluster bootstraps from the snapshot ")
			assert.Contains(t, text, "DECISION: missing from the live objects: ")
			assert.Contains(t, text, "the apply creates a new etcd, bootstrapped from the snapshot")
			assert.Contains(t, stderr, "from EtcdSnapshot nightly-1 (Complete, ")
			assert.NotContains(t, stderr, "warning:")

			var pj struct {
				RenderCommand string `json:"renderCommand"`
			}
			_, js, _ := cli(t, "", append(append([]string{"plan"}, withFlags...), "-o", "json")...)
			require.NoError(t, json.Unmarshal([]byte(js), &pj), js)
			assert.Contains(t, pj.RenderCommand, " --restore-from "+plan.ShellWord(snaps)+" --restore-snapshot nightly-1 ")
			assert.Contains(t, text, "\n  "+pj.RenderCommand+" | "+plan.ApplyCommand("")+"\n")

			// The plan's desired objects, as the Go procedure plans them.
			ns, cluster, _ := restoreStack(caller)
			req := etcdshapes.Request{Caller: naming.Caller(caller), Namespace: ns}
			if caller == "cluster" {
				req.Release = "kubernetes-demo"
			}
			liveObjs, err := plan.ReadObjects([]byte(strings.Join(docs, "\n---\n")))
			require.NoError(t, err)
			newest := snapNewest.typed(ns, cluster)
			src, err := etcd.SnapshotSource(&newest)
			require.NoError(t, err)
			_, desired, err := plan.ForRequest(req, liveObjs, apply.ForKind(etcd.Restore(src)))
			require.NoError(t, err)
			want, err := etcdshapes.Marshal(desired)
			require.NoError(t, err)

			// The printed command renders them, even after a newer
			// snapshot completed and the file was fetched again.
			require.NoError(t, os.WriteFile(snaps, []byte(snapshotsOf(caller, snapOld, snapNewest, snapFailed, snap("later", "", "Complete", "2025-02-01T00:00:00Z"))), 0o600))
			words := shellWords(t, pj.RenderCommand)
			require.Equal(t, []string{"etcdshapes", "render"}, words[:2])
			code, got, stderr := cli(t, "", words[1:]...)
			require.Equal(t, 0, code, stderr)
			assert.Equal(t, string(want), got, "the plan's render command renders what it planned")

			// The EtcdCluster live: the CRD refuses the bootstrap.
			code, text, stderr = cli(t, "", append(append([]string{"plan"}, args...), "--restore-from", snaps, "--live", liveFull)...)
			require.Equal(t, exitUnsafe, code, stderr)
			assert.Contains(t, text, "~ update EtcdCluster ")
			assert.Contains(t, text, "REFUSED spec.bootstrap: spec.bootstrap cannot be added to or removed from an existing cluster")
			assert.Contains(t, stderr, "etcdshapes: warning: --restore-from "+snaps+": --live "+liveFull+" holds the live EtcdCluster "+ns+"/"+cluster+
				", and the CRD refuses adding or changing spec.bootstrap on an existing cluster (the plan says REFUSED): delete the EtcdCluster first")
			// render says the same.
			code, _, stderr = cli(t, "", append(append([]string{"render"}, args...), "--restore-from", snaps, "--live", liveFull)...)
			require.Equal(t, 0, code, stderr)
			assert.Contains(t, stderr, "etcdshapes: warning: --restore-from "+snaps+": --live "+liveFull+" holds the live EtcdCluster ")

			// Once restored, the live EtcdCluster keeps the source: a
			// plan with the same flags changes nothing of it, and says
			// nothing of a refusal; one from another snapshot is refused.
			restored := writeTemp(t, []byte(got))
			for _, again := range []struct {
				pin     string
				code    int
				refused bool
			}{{"nightly-1", exitOK, false}, {"nightly-0", exitUnsafe, true}} {
				code, text, stderr = cli(t, "", append(append([]string{"plan"}, args...), "--restore-from", snaps, "--restore-snapshot", again.pin, "--live", restored)...)
				require.Equal(t, again.code, code, "%s: %s\n%s", again.pin, text, stderr)
				assert.Equal(t, again.refused, strings.Contains(text, "REFUSED spec.bootstrap"), again.pin)
				assert.Equal(t, again.refused, strings.Contains(stderr, "warning: --restore-from"), again.pin)
			}
		})
	}
}
