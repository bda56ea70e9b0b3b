package bench

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"

	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"k8s.io/apimachinery/pkg/apis/meta/v1/unstructured"
)

// The plan benchmarks plan a stack against its live objects as a real
// kube-apiserver returned them after a server-side apply (managedFields
// included): ../testdata/apiserver/live.yaml, which the e2e suite records
// for these two requests. The live file holds both stacks, as a tenant
// namespace does; each plan reads it all.

// planCallers are the fixture's requests.
var planCallers = []struct {
	name string
	req  etcdshapes.Request
}{
	{"etcd-chart", etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "tenant-fixture", ChartVersion: "1.2.3"}},
	{"cluster", etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-fixture", Release: "kubernetes-fixture",
		ChartVersion: "1.2.3", APIVersions: golden.AllAPIs}},
}

func fixtureLive(tb testing.TB) []etcdshapes.Object {
	tb.Helper()
	data, err := os.ReadFile(filepath.Join("..", "testdata", "apiserver", "live.yaml"))
	if err != nil {
		tb.Fatal(err)
	}
	live, err := plan.ReadObjects(data)
	if err != nil {
		tb.Fatal(err)
	}
	return live
}

// BenchmarkReadObjects reads the live fixture as plan --live reads a
// file: as YAML (kubectl get -o yaml), and as the JSON List kubectl get
// -o json prints of the same objects, every key checked for being given
// twice.
func BenchmarkReadObjects(b *testing.B) {
	data, err := os.ReadFile(filepath.Join("..", "testdata", "apiserver", "live.yaml"))
	if err != nil {
		b.Fatal(err)
	}
	items := []any{}
	for _, o := range fixtureLive(b) {
		items = append(items, o.(*unstructured.Unstructured).Object)
	}
	js, err := json.MarshalIndent(map[string]any{"apiVersion": "v1", "kind": "List", "items": items}, "", "    ")
	if err != nil {
		b.Fatal(err)
	}
	for _, c := range []struct {
		name string
		data []byte
	}{{"yaml", data}, {"json", js}} {
		b.Run(c.name, func(b *testing.B) {
			b.SetBytes(int64(len(c.data)))
			loop(b, func() {
				objs, err := plan.ReadObjects(c.data)
				if err != nil || len(objs) != len(items) {
					b.Fatal(err, len(objs))
				}
			})
		})
	}
}

// BenchmarkPlan is request → plan against the live stack: render,
// compare every object with its live one (server-side apply predicted
// with the managedFields), grade the changes. The stack planned against
// itself is empty.
func BenchmarkPlan(b *testing.B) {
	live := fixtureLive(b)
	for _, c := range planCallers {
		b.Run(c.name, func(b *testing.B) {
			loop(b, func() {
				p, _, err := plan.ForRequest(c.req, live)
				if err != nil || !p.Empty() {
					b.Fatal(err, p)
				}
				sinkBytes += len(p.Objects)
			})
		})
	}
}

// BenchmarkPlanYAML is the denominator of the plan's ratio: the same
// requests rendered to YAML (as BenchmarkYAML does for its callers).
func BenchmarkPlanYAML(b *testing.B) {
	for _, c := range planCallers {
		b.Run(c.name, func(b *testing.B) {
			loop(b, func() {
				out, err := renderPrinted(c.req, etcdshapes.Marshal)
				if err != nil {
					b.Fatal(err)
				}
				sinkBytes += len(out)
			})
		})
	}
}

// BenchmarkPlanChanges plans a change of the tenant cluster's stack (one
// member, other allocation ratios): the EtcdCluster, its WorkloadMonitor,
// VPA and defrag CronJob change, so their apply is merged for real
// (structured-merge-diff's Updater.Apply) while the rest take the plan's
// fast path.
func BenchmarkPlanChanges(b *testing.B) {
	live := fixtureLive(b)
	req := planCallers[1].req
	values, err := values.Merge([]byte("etcd: {replicas: 1}\n_cluster: {cpu-allocation-ratio: \"5\", memory-allocation-ratio: \"2\"}\n"))
	if err != nil {
		b.Fatal(err)
	}
	req.Values = values
	loop(b, func() {
		p, _, err := plan.ForRequest(req, live)
		if err != nil || p.Count(plan.Update) == 0 {
			b.Fatal(err, p)
		}
		sinkBytes += len(p.Objects)
	})
}

// TestPlanFixtureIsEmpty: the live fixture is the stacks the plan
// benchmarks plan, so the plans are empty, and a change plans updates.
func TestPlanFixtureIsEmpty(t *testing.T) {
	live := fixtureLive(t)
	for _, c := range planCallers {
		p, _, err := plan.ForRequest(c.req, live)
		if err != nil {
			t.Fatal(err)
		}
		if !p.Empty() {
			t.Errorf("%s: the plan of the fixture is not empty:\n%s", c.name, p)
		}
	}
}
