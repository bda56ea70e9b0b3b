package values_test

import (
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/invalidtest"
	"github.com/etcdshapes/etcdshapes/invalid"
	. "github.com/etcdshapes/etcdshapes/values"
	"github.com/stretchr/testify/require"
)

// TestEveryBadKey: a values file with several bad keys is refused with
// every one, each named by its values key (the builders' Go paths
// re-rooted), in the order the checks run, the first being the one a
// check that stops at its first failure gives.
func TestEveryBadKey(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		cluster   bool
		want      []string
	}{
		{"size, replicas, ratio", "size: 0\nreplicas: 100\n_cluster:\n  cpu-allocation-ratio: \"-1\"\n", false,
			[]string{"values.replicas", "values.size", "_cluster.cpu-allocation-ratio"}},
		{"unknown keys and a null", "sise: 4Gi\nreplica: 3\nversion: null\n", false,
			[]string{"replica", "sise", "values.version"}},
		{"each resource", "resources:\n  cpu: -1\n  memory: lots\n  bad name: 1\nstorageClass: 3\n", false,
			[]string{"values.storageClass", "values.resources.bad name", "values.resources.cpu", "values.resources.memory"}},
		{"each ratio and spread constraint", "_cluster:\n  cpu-allocation-ratio: \"\"\n  memory-allocation-ratio: null\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n      topologySpreadConstraints:\n      - maxSkew: 0\n        topologyKey: zone\n        whenUnsatisfiable: DoNotSchedule\n      - maxSkew: 1\n        topologyKey: \"\"\n        whenUnsatisfiable: DoNotSchedule\n", false,
			[]string{"_cluster.memory-allocation-ratio", "_cluster.cpu-allocation-ratio",
				"_cluster.scheduling.globalAppTopologySpreadConstraints[0].maxSkew", "_cluster.scheduling.globalAppTopologySpreadConstraints[1].topologyKey"}},
		{"cluster: etcd and _cluster", "etcd:\n  replicas: 2\n  size: 1Gi\n_cluster:\n  ephemeral-storage-allocation-ratio: x\n  etcd-storage-class-local: 1\n", true,
			[]string{"etcd.size", "etcd.replicas", "_cluster.ephemeral-storage-allocation-ratio", "_cluster.etcd-storage-class-local"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := Merge([]byte(c.doc))
			require.NoError(t, err)
			if c.cluster {
				_, err = Cluster(v)
			} else {
				_, err = EtcdChart(v)
			}
			invalidtest.RequireEvery(t, err, c.want...)
		})
	}
}

// TestMergeEveryDocument: every bad document of a Merge is reported.
func TestMergeEveryDocument(t *testing.T) {
	_, err := Merge([]byte("a: 1\n"), []byte("[1, 2]\n"), []byte("b: 2\n"), []byte("- x\n"))
	require.Equal(t, []string{"values[1]", "values[3]"}, invalidtest.Fields(err), "%v", err)
}

// TestRerootList: EtcdChartError and ClusterError re-root every refusal of
// a list, in order.
func TestRerootList(t *testing.T) {
	err := invalid.Join(invalid.Errorf("Size", "0", "r"), invalid.Errorf("Resources[cpu]", "-1", "r"), invalid.Errorf("Ratios.CPU", "x", "r"), invalid.Errorf("namespace", "x", "r"))
	require.Equal(t, []string{"values.size", "values.resources.cpu", "_cluster.cpu-allocation-ratio", "namespace"}, invalidtest.Fields(EtcdChartError(err)))
	require.Equal(t, []string{"Size", "Resources[cpu]", "_cluster.cpu-allocation-ratio", "namespace"}, invalidtest.Fields(ClusterError(err)))
	require.Equal(t, []string{"Size", "Resources[cpu]", "Ratios.CPU", "namespace"}, invalidtest.Fields(err), "the input is not changed")
	var nilErr *invalid.Error
	require.Equal(t, error(nilErr), EtcdChartError(nilErr))
}

// TestRenderReportsTheOtherClusterValues: Render builds a tenant cluster's
// stack even when some of its values are refused, with the values that
// were read, so a value only the stack checks (a storage class name) is
// refused beside the refused ones: the values reader's refusals first,
// each field once.
func TestRenderReportsTheOtherClusterValues(t *testing.T) {
	for _, c := range []struct {
		name, doc string
		want      []string
	}{
		{"refused replicas", "etcd:\n  replicas: 2\n_cluster:\n  etcd-storage-class-local: Bad_Class\n",
			[]string{"etcd.replicas", "_cluster.etcd-storage-class-local"}},
		{"a ratio the builder refuses too", "_cluster:\n  memory-allocation-ratio: \"0\"\n  etcd-storage-class-replicated: Bad_Class\n",
			[]string{"_cluster.memory-allocation-ratio", "_cluster.etcd-storage-class-replicated"}},
		{"a refused spread constraint", "_cluster:\n  etcd-storage-class-local: a_b\n  scheduling:\n    globalAppTopologySpreadConstraints: |\n      topologySpreadConstraints:\n      - maxSkew: 0\n        topologyKey: zone\n        whenUnsatisfiable: DoNotSchedule\n",
			[]string{"_cluster.scheduling.globalAppTopologySpreadConstraints[0].maxSkew", "_cluster.etcd-storage-class-local"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			v, err := Merge([]byte(c.doc))
			require.NoError(t, err)
			_, verr := Cluster(v)
			require.Equal(t, c.want[0], invalidtest.Fields(verr)[0], "the values reader refuses first: %v", verr)
			_, err = etcdshapes.Render(etcdshapes.Request{Caller: etcdshapes.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo", Values: v})
			invalidtest.RequireEvery(t, err, c.want...)
		})
	}
	// What was read is returned beside the refusals; a refused value is
	// left at its zero.
	v, err := Merge([]byte("etcd:\n  replicas: 2\n_cluster:\n  cpu-allocation-ratio: 4\n  etcd-storage-class-local: local\n"))
	require.NoError(t, err)
	o, err := Cluster(v)
	require.Error(t, err)
	require.Equal(t, ClusterEtcd{Ratios: etcd.Ratios{CPU: "4"}, StorageClassLocal: "local"}, o)
}
