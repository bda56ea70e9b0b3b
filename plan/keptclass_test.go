package plan_test

import (
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// A tenant cluster keeps its live storage class (immutable); where that
// is not the class its values choose for a fresh cluster of the planned
// member count, the plan says which and what it means: on the replica
// decision when the count changes (3 -> 1 on the node-local class: the
// single member's node takes the data with it; 1 -> 3 on the replicated
// class), as a note otherwise; and nothing where the kept class is the
// one the values choose.
func TestPlanSaysWhatTheKeptStorageClassMeans(t *testing.T) {
	classes := map[string]any{"etcd-storage-class-local": "local", "etcd-storage-class-replicated": "repl"}
	planOf := func(liveReplicas int64, liveClass string, replicas int) *plan.Result {
		return planCluster(t, func(objs []etcdshapes.Object) {
			c := liveObject(t, objs, "EtcdCluster", "kubernetes-demo-etcd")
			require.NoError(t, unstructured.SetNestedField(c.Object, liveClass, "spec", "storage", "storageClassName"))
			require.NoError(t, unstructured.SetNestedField(c.Object, liveReplicas, "spec", "replicas"))
		}, func(r *etcdshapes.Request) {
			r.Values = map[string]any{"_cluster": classes, "etcd": map[string]any{"replicas": replicas}}
		})
	}
	etcdFindings := func(p *plan.Result) []plan.Finding {
		return objectPlan(t, p, "EtcdCluster", "kubernetes-demo-etcd").Findings
	}
	for _, tc := range []struct {
		name         string
		liveReplicas int64
		liveClass    string
		replicas     int
		verdict      plan.Verdict // of the finding that says it; "" for none
		path         string
		want         []string
	}{
		{"3 -> 1 on local", 3, "local", 1, plan.NeedsDecision, "spec.replicas",
			[]string{`keeps its live storage class "local"`, `not "repl"`, "node-local", "losing that node loses the tenant's data", `"Recover from a snapshot"`}},
		{"1 -> 3 on repl", 1, "repl", 3, plan.NeedsDecision, "spec.replicas",
			[]string{`keeps its live storage class "repl"`, `not "local"`, "replicated", "3 times over", `"Recover from a snapshot"`}},
		{"1 on local, no change", 1, "local", 1, plan.Note, "spec.storage.storageClassName",
			[]string{`keeps its live storage class "local"`, "losing that node loses the tenant's data"}},
		{"3 on another class", 3, "legacy-ssd", 3, plan.Note, "spec.storage.storageClassName",
			[]string{`keeps its live storage class "legacy-ssd"`, "not known here"}},
		{"3 on local", 3, "local", 3, "", "", nil},
		{"3 -> 1 on repl", 3, "repl", 1, "", "", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p := planOf(tc.liveReplicas, tc.liveClass, tc.replicas)
			var said []plan.Finding
			for _, f := range etcdFindings(p) {
				if strings.Contains(f.Message, "keeps its live storage class") {
					said = append(said, f)
				}
			}
			if tc.verdict == "" {
				assert.Empty(t, said, "%s", p)
				return
			}
			require.Len(t, said, 1, "%s", p)
			assert.Equal(t, tc.verdict, said[0].Verdict)
			assert.Equal(t, tc.path, said[0].Path)
			for _, w := range tc.want {
				assert.Contains(t, said[0].Message, w)
			}
			assert.Contains(t, p.String(), said[0].Message)
		})
	}
}

// The render says the same on stderr (the CLI prints
// StorageClassWarnings): for the live class from a live file or from
// --live-storage-class, every member count, and only for a tenant
// cluster with a kept class the values would not choose.
func TestStorageClassWarnings(t *testing.T) {
	classes := map[string]any{"etcd-storage-class-local": "local", "etcd-storage-class-replicated": "repl"}
	req := func(replicas int, live *string) etcdshapes.Request {
		return etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo",
			Values: map[string]any{"_cluster": classes, "etcd": map[string]any{"replicas": replicas}}, Live: etcdshapes.LiveState{StorageClassName: live}}
	}
	s := func(v string) *string { return &v }
	w := etcdshapes.StorageClassWarnings(req(1, s("local")))
	require.Len(t, w, 1)
	assert.Contains(t, w[0], "losing that node loses the tenant's data")
	assert.Len(t, etcdshapes.StorageClassWarnings(req(3, s("repl"))), 1)
	assert.Len(t, etcdshapes.StorageClassWarnings(req(3, s(""))), 1)
	assert.Empty(t, etcdshapes.StorageClassWarnings(req(1, s("repl"))))
	assert.Empty(t, etcdshapes.StorageClassWarnings(req(3, s("local"))))
	assert.Empty(t, etcdshapes.StorageClassWarnings(req(1, nil)), "no live cluster: the values choose")
	shared := req(1, s("local"))
	shared.Live.DataStoreName = "tenant-root"
	assert.Empty(t, etcdshapes.StorageClassWarnings(shared), "a shared datastore renders no EtcdCluster")
	etcdChart := req(1, s("local"))
	etcdChart.Caller = naming.CallerEtcd
	assert.Empty(t, etcdshapes.StorageClassWarnings(etcdChart))
}
