package values_test

import (
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/invalidtest"
	"github.com/etcdshapes/etcdshapes/naming"
	. "github.com/etcdshapes/etcdshapes/values"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
)

// TestEveryBadKey: a values file with several bad keys is refused with
// every one, each named by its values key (the builders validate under
// EtcdChartPaths and ClusterPaths), in the order the checks run, the first being the one a
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
				_, err = ReadCluster(v)
			} else {
				_, err = ReadEtcdChart(v)
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

// TestPathsNameValueKeys: the builder's validation under a chart's paths
// names each option by its values key, with no renaming afterwards; the
// Go caller's paths name the Go fields.
func TestPathsNameValueKeys(t *testing.T) {
	o := etcd.Options{Size: resource.MustParse("1Ki"), Resources: corev1.ResourceList{"cpu": resource.MustParse("-1")}, Ratios: etcd.Ratios{CPU: "x"},
		Version: "latest", Replicas: 100, TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{}}, StorageClassName: "A",
		Affinity: &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{}}},
		Auth:     etcd.Auth{RootCredentialsSecret: "s"}}
	require.Equal(t, []string{"values.version", "values.replicas", "values.size", "values.storageClass", "_cluster.cpu-allocation-ratio", "values.resources.cpu",
		"_cluster.scheduling.globalAppTopologySpreadConstraints[0].maxSkew", "_cluster.scheduling.globalAppTopologySpreadConstraints[0].topologyKey", "_cluster.scheduling.globalAppTopologySpreadConstraints[0].whenUnsatisfiable",
		"values.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", "values.auth.rootCredentialsSecret"},
		invalidtest.Fields(EtcdChartPaths().Etcd.Validate(o)))
	require.Equal(t, []string{"Version", "Replicas", "Size", "StorageClassName", "Ratios.CPU", "Resources[cpu]",
		"TopologySpreadConstraints[0].maxSkew", "TopologySpreadConstraints[0].topologyKey", "TopologySpreadConstraints[0].whenUnsatisfiable",
		"Affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", "Auth.RootCredentialsSecret"},
		invalidtest.Fields(o.Validate()))
	require.Equal(t, []string{"etcd.replicas", "etcd.auth.rootCredentialsSecret"}, invalidtest.Fields(ClusterPaths().Etcd.Validate(etcd.Options{Replicas: -1, Auth: etcd.Auth{RootCredentialsSecret: "s"}})))
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
			_, verr := ReadCluster(v)
			require.Equal(t, c.want[0], invalidtest.Fields(verr)[0], "the values reader refuses first: %v", verr)
			_, err = etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo", Values: v})
			invalidtest.RequireEvery(t, err, c.want...)
		})
	}
	// What was read is returned beside the refusals; a refused value is
	// left at its zero.
	v, err := Merge([]byte("etcd:\n  replicas: 2\n_cluster:\n  cpu-allocation-ratio: 4\n  etcd-storage-class-local: local\n"))
	require.NoError(t, err)
	o, err := ReadCluster(v)
	require.Error(t, err)
	require.Equal(t, ClusterEtcd{Ratios: etcd.Ratios{CPU: "4"}, StorageClassLocal: "local"}, o)
}
