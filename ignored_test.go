package etcdshapes_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/plan"
	"github.com/etcdshapes/etcdshapes/values"
)

// ignoredPlaces are the places of the values where a caller's chart
// ignores whatever is there (SPEC: both callers ignore _namespace and
// every _cluster key they do not read; the etcd chart a leftover backup;
// the kubernetes chart every top-level key but _cluster and etcd), each
// with the tree put there: values with tree at that place.
var ignoredPlaces = []struct {
	caller naming.Caller
	place  string
	values func(tree any) map[string]any
}{
	{naming.CallerEtcd, "_namespace", func(t any) map[string]any { return map[string]any{"_namespace": t} }},
	{naming.CallerCluster, "_namespace", func(t any) map[string]any { return map[string]any{"_namespace": t} }},
	{naming.CallerEtcd, "backup", func(t any) map[string]any { return map[string]any{"backup": t} }},
	{naming.CallerEtcd, "_cluster.unknown", func(t any) map[string]any {
		return map[string]any{"_cluster": map[string]any{"unknown": t, "cpu-allocation-ratio": 5}}
	}},
	{naming.CallerCluster, "_cluster.unknown", func(t any) map[string]any {
		return map[string]any{"_cluster": map[string]any{"unknown": t}}
	}},
	{naming.CallerEtcd, "_cluster.scheduling.unknown", func(t any) map[string]any {
		return map[string]any{"_cluster": map[string]any{"scheduling": map[string]any{"unknown": t}}}
	}},
	{naming.CallerCluster, "addons", func(t any) map[string]any { return map[string]any{"addons": t} }},
	// A _cluster map that contains itself: its own key _cluster is not
	// one the readers read.
	{naming.CallerCluster, "_cluster._cluster", func(t any) map[string]any {
		c := map[string]any{"memory-allocation-ratio": 2}
		c["_cluster"] = c
		return map[string]any{"_cluster": c, "x": t}
	}},
}

// TestIgnoredValuesNeverRefused: what the charts ignore is never walked,
// so never refused (the charts render it), whatever it holds: a Go tree
// that contains itself, nests 100,000 deep or is 2^40 values once walked
// (shared subtrees), under every place a reader ignores, through Render
// and plan alike and in bounded time, with no stack overflow; and a
// values file whose ignored _namespace nests as deep as Helm reads
// (yaml.v2's 10,000 levels), which was refused beyond 1,000.
func TestIgnoredValuesNeverRefused(t *testing.T) {
	trees := map[string]func() any{
		"cyclic": func() any { return selfMap("a") },
		"deep":   func() any { return deepMap(100_000) },
		"shared": func() any { return sharedTree(40) },
		"cyclic list": func() any {
			l := []any{nil}
			l[0] = l
			return l
		},
	}
	for _, p := range ignoredPlaces {
		for name, tree := range trees {
			t.Run(p.caller.String()+" "+p.place+" "+name, func(t *testing.T) {
				req := etcdshapes.Request{Caller: p.caller, Namespace: "tenant-demo", Release: "kubernetes-demo", Values: p.values(tree())}
				if p.caller == naming.CallerEtcd {
					req.Namespace, req.Release = "tenant-root", ""
				}
				start := time.Now()
				if _, err := etcdshapes.Render(req); err != nil {
					t.Fatalf("Render: %v", err)
				}
				if _, _, err := plan.ForRequest(req, nil); err != nil {
					t.Fatalf("plan: %v", err)
				}
				if p.caller == naming.CallerEtcd {
					_ = values.EtcdChartWarnings(req.Values)
				} else {
					_ = values.ClusterWarnings(req.Values)
				}
				if d := time.Since(start); d > 30*time.Second {
					t.Fatalf("took %v", d)
				}
			})
		}
	}

	// Files: as deep as yaml.v2 (Helm's reader) nests, flow style and
	// block style, within the byte and node limits.
	flow := func(d int) string { return strings.Repeat("[", d) + strings.Repeat("]", d) }
	block := func(key string, d int) string {
		var b strings.Builder
		b.WriteString(key + ":\n")
		for i := 1; i <= d; i++ {
			b.WriteString(strings.Repeat(" ", i) + "a:\n")
		}
		return b.String()
	}
	for _, f := range []struct {
		caller    naming.Caller
		name, doc string
	}{
		{naming.CallerEtcd, "_namespace flow 9999 deep", "_namespace: " + flow(9999) + "\n"},
		{naming.CallerCluster, "_namespace flow 9999 deep", "_namespace: " + flow(9999) + "\n"},
		{naming.CallerEtcd, "_namespace block 5000 deep", block("_namespace", 5000)},
		{naming.CallerEtcd, "backup flow 9999 deep", "backup: " + flow(9999) + "\n"},
		{naming.CallerEtcd, "_cluster key flow 9998 deep", "_cluster:\n  x: " + flow(9998) + "\n"},
		{naming.CallerCluster, "a chart key flow 9999 deep", "addons: " + flow(9999) + "\n"},
	} {
		t.Run(f.caller.String()+" file "+f.name, func(t *testing.T) {
			if len(f.doc) > inputlimit.MaxValuesBytes {
				t.Fatalf("the file is %d bytes, beyond the limit", len(f.doc))
			}
			v, err := values.Merge([]byte(f.doc))
			if err != nil {
				t.Fatalf("Merge: %v", err)
			}
			req := etcdshapes.Request{Caller: f.caller, Namespace: "tenant-demo", Release: "kubernetes-demo", Values: v}
			if f.caller == naming.CallerEtcd {
				req.Namespace, req.Release = "tenant-root", ""
			}
			if _, err := etcdshapes.Render(req); err != nil {
				t.Fatalf("Render: %v", err)
			}
		})
	}
	// Beyond yaml.v2's depth the file is refused, as Helm refuses it
	// ("exceeded max depth of 10000").
	if _, err := values.Merge([]byte("_namespace: " + flow(10_001) + "\n")); err == nil || !strings.Contains(err.Error(), "exceeded max depth") {
		t.Fatalf("a _namespace 10,001 deep: %v", err)
	}
}

// TestReadValuesStillChecked: the same trees where a reader reads are
// refused, as before (TestCallerTreesBounded), naming their place.
func TestReadValuesStillChecked(t *testing.T) {
	for _, tc := range []struct {
		caller naming.Caller
		values map[string]any
		field  string
	}{
		{naming.CallerEtcd, map[string]any{"affinity": selfMap("a")}, "affinity.a"},
		{naming.CallerEtcd, map[string]any{"unknown": selfMap("a")}, "unknown.a"},
		{naming.CallerEtcd, map[string]any{"_cluster": map[string]any{"cpu-allocation-ratio": selfMap("a")}}, "_cluster.cpu-allocation-ratio.a"},
		{naming.CallerCluster, map[string]any{"etcd": selfMap("x")}, "etcd.x"},
		{naming.CallerCluster, map[string]any{"_cluster": map[string]any{"scheduling": map[string]any{"globalAppTopologySpreadConstraints": selfMap("a")}}},
			"_cluster.scheduling.globalAppTopologySpreadConstraints.a"},
	} {
		t.Run(fmt.Sprint(tc.field), func(t *testing.T) {
			req := etcdshapes.Request{Caller: tc.caller, Namespace: "tenant-demo", Release: "kubernetes-demo", Values: tc.values}
			if tc.caller == naming.CallerEtcd {
				req.Namespace, req.Release = "tenant-root", ""
			}
			_, err := etcdshapes.Render(req)
			if err == nil || !strings.Contains(err.Error(), tc.field+": ") || !strings.Contains(err.Error(), "contains itself") {
				t.Fatalf("got %v, want %s refused as a cycle", err, tc.field)
			}
		})
	}
}
