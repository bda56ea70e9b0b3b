package values_test

import (
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	. "github.com/etcdshapes/etcdshapes/values"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// TestGoQuantitiesInValues: a values map built in Go may hold the
// quantities as a Go caller has them (resource.Quantity, a pointer to one,
// a corev1.ResourceList): each reads as the quantity string it prints,
// as the same YAML would, for both charts. One beyond the quantity bounds
// is refused by the bound it breaks, naming its field; never "must be a
// quantity" for a quantity.
func TestGoQuantitiesInValues(t *testing.T) {
	mem := resource.MustParse("1Gi")
	o, err := ReadEtcdChart(map[string]any{
		"size":      resource.MustParse("10Gi"),
		"resources": map[string]any{"cpu": resource.MustParse("2"), "memory": &mem},
	})
	if err != nil {
		t.Fatal(err)
	}
	if o.Size.String() != "10Gi" || o.Resources.Cpu().String() != "2" || o.Resources.Memory().String() != "1Gi" {
		t.Fatalf("read size %s, resources %v", o.Size.String(), o.Resources)
	}
	o, err = ReadEtcdChart(map[string]any{"resources": corev1.ResourceList{corev1.ResourceCPU: resource.MustParse("500m")}})
	if err != nil {
		t.Fatal(err)
	}
	if o.Resources.Cpu().String() != "500m" {
		t.Fatalf("read resources %v", o.Resources)
	}

	huge := resource.MustParse("1e90")
	huge.Add(resource.MustParse("1e90")) // beyond a float64's 2^63
	for _, tc := range []struct {
		values map[string]any
		field  string
	}{
		{map[string]any{"size": huge}, "values.size"},
		{map[string]any{"resources": map[string]any{"memory": &huge}}, "values.resources.memory"},
	} {
		_, err := ReadEtcdChart(tc.values)
		all := invalid.All(err)
		if len(all) != 1 || all[0].Field != tc.field || strings.Contains(all[0].Rule, "must be a quantity (") {
			t.Fatalf("%v: got %v, want one refusal of %s by a bound", tc.values, err, tc.field)
		}
	}
}

// TestOneJSONKeyWhereNoChartReads: two keys of one map that are one JSON
// key (1 and "1") are refused where a chart reads them, and kept where
// neither does (_namespace, backup, a _cluster key neither reads, an
// unknown top-level key), the value YAML gave under a string key, in
// either order; every run the same.
func TestOneJSONKeyWhereNoChartReads(t *testing.T) {
	for _, doc := range []string{"_namespace: {1: a, \"1\": b}\n", "_namespace: {\"1\": b, 1: a}\n", "_namespace: {x: {true: a, \"true\": b}}\n"} {
		for range 20 {
			v, err := Merge([]byte(doc))
			if err != nil {
				t.Fatalf("%q: %v", doc, err)
			}
			ns := v["_namespace"].(map[string]any)
			if x, ok := ns["x"].(map[string]any); ok {
				ns = x
			}
			for _, got := range ns {
				if got != "b" {
					t.Fatalf("%q: kept %v, want the string key's b", doc, got)
				}
			}
		}
	}
	for _, doc := range []string{"backup:\n  1: a\n  \"1\": b\n", "_cluster:\n  x: {1: a, \"1\": b}\n", "addons: {1: a, \"1\": b}\n", "1: a\n\"1\": b\n", "_cluster: {scheduling: {1: a, \"1\": b}}\n"} {
		if _, err := Merge([]byte(doc)); err != nil {
			t.Fatalf("%q: %v", doc, err)
		}
	}
	for doc, field := range map[string]string{
		"resources: {1: a, \"1\": b}\n": "values[0].resources.1",
		"etcd: {x: {1: a, \"1\": b}}\n": "values[0].etcd.x.1",
		"_cluster: {scheduling: {globalAppTopologySpreadConstraints: {1: a, \"1\": b}}}\n": "values[0]._cluster.scheduling.globalAppTopologySpreadConstraints.1",
		"_cluster:\n  cpu-allocation-ratio: {1: a, \"1\": b}\n":                            "values[0]._cluster.cpu-allocation-ratio.1",
		"affinity: [{1: a, \"1\": b}]\n":                                                   "values[0].affinity[0].1",
	} {
		_, err := Merge([]byte(doc))
		all := invalid.All(err)
		if len(all) != 1 || all[0].Field != field {
			t.Fatalf("%q: got %v, want %s refused", doc, err, field)
		}
	}
}
