package etcdshapes_test

import (
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/invalidtest"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
)

// multiBadInput is an input with several independent bad fields: the first
// refusal is a badInput of the catalogue (what the chart, which stops at
// its first failure, prints), also the fields of the refusals after it, in
// order.
type multiBadInput struct {
	badInput
	also []string
}

func multiBadInputs() []multiBadInput {
	bad := "bad_class"
	return []multiBadInput{
		{badInput{"values: replicas, size and a ratio", etcdValues("size: 0\nreplicas: 100\n_cluster:\n  cpu-allocation-ratio: \"-1\"\n"), "values.replicas", "100", "at most 99"},
			[]string{"values.size", "_cluster.cpu-allocation-ratio"}},
		{badInput{"values: unknown keys and a resource", etcdValues("sise: 4Gi\nresources:\n  cpu: lots\n  memory: -1\n"), "sise", "4Gi", "is not a value of this chart"},
			[]string{"values.resources.cpu", "values.resources.memory"}},
		{badInput{"values, then the namespace and chart version", render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "default", ChartVersion: "one", Values: map[string]any{"size": "4Xi", "storageClass": "Bad_Class"}}),
			"values.size", "4Xi", "quantity"},
			[]string{"namespace", "chartVersion", "values.storageClass"}},
		{badInput{"cluster values, then the live state", render(etcdshapes.Request{Values: map[string]any{"etcd": map[string]any{"replicas": 2}}, APIVersions: []string{"cilium.io/v2"}, Live: etcdshapes.LiveState{DataStoreName: "Bad_Store", StorageClassName: &bad}}),
			"etcd.replicas", "2", "1 or 3"},
			[]string{"live.dataStoreName", "live.storageClassName"}},
		{badInput{"etcd chart: names, inputs and options", func() error {
			_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Release: "other", APIVersions: []string{"not an api", "v1"}, Etcd: etcd.Options{Version: "3", Replicas: -1}})
			return err
		}, "Release", "other", "release \"etcd\""},
			[]string{"Version", "Replicas"}},
		{badInput{"cluster: every input", func() error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", ChartVersion: "v", Replicas: 2, StorageClassLocal: "A", Ratios: etcd.Ratios{CPU: "x"}})
			return err
		}, "ChartVersion", "v", "chart version"},
			[]string{"Replicas", "StorageClassLocal", "Ratios.CPU"}},
		{badInput{"cluster: release rules and options", func() error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-", Release: "1demo", Ratios: etcd.Ratios{CPU: "x", Memory: "0"}})
			return err
		}, "Namespace", "tenant-", "namespace name"},
			[]string{"Ratios.CPU", "Ratios.Memory"}},
		{badInput{"cluster: a name only the rendered stack needs", func() error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "1demo", Ratios: etcd.Ratios{Memory: "0"}})
			return err
		}, "Release", "1demo", "start with a letter"},
			[]string{"Ratios.Memory"}},
	}
}

// TestBadInputsEvery: every refusal of an input with several bad fields,
// in order, the first being the one the catalogue gives for that field
// alone (the one the Helm chart, which stops at its first failure, prints).
func TestBadInputsEvery(t *testing.T) {
	for _, c := range multiBadInputs() {
		t.Run(c.name, func(t *testing.T) {
			_, err := c.refused(t)
			invalidtest.RequireEvery(t, err, append([]string{c.field}, c.also...)...)
			all := invalid.All(err)
			lines := strings.Split(err.Error(), "\n")
			require.Len(t, lines, len(all))
			for i, e := range all {
				require.Equal(t, e.Error(), lines[i])
			}
			require.Equal(t, err.Error(), c.run().Error(), "the same every run")
		})
	}
}
