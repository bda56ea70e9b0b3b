package values_test

import (
	"fmt"
	"strings"
	"testing"
	"time"

	. "github.com/etcdshapes/etcdshapes/values"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// warning is the warning about an ignored key that resembles like.
func warning(reader, key, like string) string {
	return "values: " + key + " is ignored, as " + reader + " ignores every key it does not read: did you mean " + like + "?"
}

const (
	clusterReader = "the kubernetes chart's etcd"
	etcdReader    = "the etcd chart"
)

// TestClusterWarnings: the keys the kubernetes chart's etcd ignores are
// told when they resemble a key it reads at the same level (case, "-"
// and "_", an edit or a few, by the key's length), whatever the level
// (the top, _cluster, _cluster.scheduling), and only then: the chart's
// own keys, the platform's _namespace and unrelated _cluster keys are
// not. One warning a key, sorted by key.
func TestClusterWarnings(t *testing.T) {
	for _, tc := range []struct {
		name, values string
		want         [][2]string // key, the read key it resembles
	}{
		{"a letter more", "etcdd: {replicas: 1}\n", [][2]string{{`"etcdd"`, `"etcd"`}}},
		{"a letter less", "etc: {replicas: 1}\n", [][2]string{{`"etc"`, `"etcd"`}}},
		{"swapped letters", "ectd: {replicas: 1}\n", [][2]string{{`"ectd"`, `"etcd"`}}},
		{"case", "Etcd: {replicas: 1}\nETCD: {}\n", [][2]string{{`"ETCD"`, `"etcd"`}, {`"Etcd"`, `"etcd"`}}},
		{"without the underscore", "cluster: {}\n", [][2]string{{`"cluster"`, `"_cluster"`}}},
		{"plural", "_clusters: {}\n", [][2]string{{`"_clusters"`, `"_cluster"`}}},
		{"two edits in a long key", "_clustr_: {}\n", [][2]string{{`"_clustr_"`, `"_cluster"`}}},
		{"a ratio misspelt", "_cluster:\n  cpu-alocation-ratio: 2\n", [][2]string{{`"_cluster.cpu-alocation-ratio"`, `"_cluster.cpu-allocation-ratio"`}}},
		{"a ratio in snake case", "_cluster:\n  memory_allocation_ratio: 2\n", [][2]string{{`"_cluster.memory_allocation_ratio"`, `"_cluster.memory-allocation-ratio"`}}},
		{"a ratio in camel case", "_cluster:\n  ephemeralStorageAllocationRatio: 2\n", [][2]string{{`"_cluster.ephemeralStorageAllocationRatio"`, `"_cluster.ephemeral-storage-allocation-ratio"`}}},
		{"three edits in a longer key", "_cluster:\n  ephemeral-storag-allocaton-rati: 2\n", [][2]string{{`"_cluster.ephemeral-storag-allocaton-rati"`, `"_cluster.ephemeral-storage-allocation-ratio"`}}},
		{"a storage class", "_cluster:\n  etcd-storage-class-locl: x\n", [][2]string{{`"_cluster.etcd-storage-class-locl"`, `"_cluster.etcd-storage-class-local"`}}},
		{"scheduling", "_cluster:\n  schedulling: {}\n", [][2]string{{`"_cluster.schedulling"`, `"_cluster.scheduling"`}}},
		{"the spread constraints", "_cluster:\n  scheduling:\n    globalAppTopologySpreadConstraint: x\n",
			[][2]string{{`"_cluster.scheduling.globalAppTopologySpreadConstraint"`, `"_cluster.scheduling.globalAppTopologySpreadConstraints"`}}},
		{"sorted", "etcdd: {}\n_cluster:\n  cpu-allocation-rate: 1\n  Scheduling: {}\nEtcd: {}\n",
			[][2]string{{`"Etcd"`, `"etcd"`}, {`"_cluster.Scheduling"`, `"_cluster.scheduling"`}, {`"_cluster.cpu-allocation-rate"`, `"_cluster.cpu-allocation-ratio"`}, {`"etcdd"`, `"etcd"`}}},
		{"escaped", "\"etcd\\e\": {}\n\"etc\\n\": {}\n", [][2]string{{`"etc\n"`, `"etcd"`}, {`"etcd\x1b"`, `"etcd"`}}},
		// Keys that are read, or no mistake.
		{"the keys it reads", "etcd: {replicas: 1}\n_cluster:\n  cpu-allocation-ratio: 2\n  memory-allocation-ratio: 1\n  ephemeral-storage-allocation-ratio: 40\n" +
			"  etcd-storage-class-local: a\n  etcd-storage-class-replicated: b\n  scheduling:\n    globalAppTopologySpreadConstraints: \"\"\n", nil},
		{"the kubernetes chart's other keys", "version: v1.32\nstorageClass: replicated\nhost: k.example.org\nnodeGroups: {md0: {minReplicas: 0}}\n" +
			"addons: {certManager: {enabled: false}}\ncontrolPlane: {replicas: 2}\n_namespace: {etcd: tenant-root, host: example.org}\n", nil},
		{"other platform keys", "_cluster:\n  root-host: example.org\n  bundle-name: paas-full\n  cluster-domain: cozy.local\n  etcd-storage-class: x\n  scheduling:\n    globalAppNodeSelector: {}\n", nil},
		{"short keys far from etcd", "etc12: 1\net1c2d: 1\nabcd: 1\ne: 1\n\"\": 1\n", nil},
		{"not maps", "_cluster: 1\n", nil},
		{"scheduling not a map", "_cluster:\n  scheduling: [1]\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals, err := Merge([]byte(tc.values))
			require.NoError(t, err)
			var want []string
			for _, w := range tc.want {
				want = append(want, warning(clusterReader, w[0], w[1]))
			}
			assert.Equal(t, want, ClusterWarnings(vals))
		})
	}
}

// TestEtcdChartWarnings: the etcd chart refuses unknown top-level keys,
// so what it ignores and may tell is under _cluster: keys that resemble
// a ratio or the spread constraints. The storage classes only the
// kubernetes chart reads, and keys resembling them, are no mistake.
func TestEtcdChartWarnings(t *testing.T) {
	for _, tc := range []struct {
		name, values string
		want         [][2]string
	}{
		{"a ratio", "_cluster:\n  cpu-allocation-ration: 2\n", [][2]string{{`"_cluster.cpu-allocation-ration"`, `"_cluster.cpu-allocation-ratio"`}}},
		{"the spread constraints", "_cluster:\n  scheduling:\n    GlobalAppTopologySpreadConstraints: x\n",
			[][2]string{{`"_cluster.scheduling.GlobalAppTopologySpreadConstraints"`, `"_cluster.scheduling.globalAppTopologySpreadConstraints"`}}},
		{"the storage classes", "_cluster:\n  etcd-storage-class-local: a\n  etcd-storage-class-replicated: b\n  etcd-storage-class-locl: c\n", nil},
		{"top-level keys are refused, not told", "etcdd: 1\n", nil},
	} {
		t.Run(tc.name, func(t *testing.T) {
			vals, err := Merge([]byte(tc.values))
			require.NoError(t, err)
			var want []string
			for _, w := range tc.want {
				want = append(want, warning(etcdReader, w[0], w[1]))
			}
			assert.Equal(t, want, EtcdChartWarnings(vals))
		})
	}
}

// TestKeyWarningsBounded: at most ten warnings and one counting the
// rest; a huge key, many keys, a key quoted past the message limit and
// values that contain themselves cost little and print a bounded line.
func TestKeyWarningsBounded(t *testing.T) {
	var b strings.Builder
	for i := range 25 {
		b.WriteString("etcd" + string(rune('a'+i)) + ": 1\n")
	}
	vals, err := Merge([]byte(b.String()))
	require.NoError(t, err)
	w := ClusterWarnings(vals)
	require.Len(t, w, 11)
	assert.Equal(t, warning(clusterReader, `"etcda"`, `"etcd"`), w[0])
	assert.Equal(t, warning(clusterReader, `"etcdj"`, `"etcd"`), w[9])
	assert.Equal(t, "values: 15 more keys are ignored that resemble keys the kubernetes chart's etcd reads", w[10])

	// A key of a megabyte, many distinct keys: quick, nothing told.
	many := map[string]any{strings.Repeat("e", 1<<20): 1, "_cluster": map[string]any{strings.Repeat("cpu-allocation-ratio", 50_000): 1}}
	for i := range 100_000 {
		many[fmt.Sprintf("k%07d", i)] = i // near _cluster's length: each is compared
	}
	start := time.Now()
	assert.Empty(t, ClusterWarnings(many))
	assert.Less(t, time.Since(start), 5*time.Second)

	// Values that contain themselves where a reader reads are the
	// readers' to refuse; under a key they ignore (_cluster's unknown
	// keys), no one's: the keys are still told.
	loop := map[string]any{}
	loop["etcd"] = loop
	loop["etcdd"] = 1
	assert.Nil(t, ClusterWarnings(loop))
	assert.Nil(t, EtcdChartWarnings(loop))
	assert.Nil(t, ClusterWarnings(nil))
	ignored := map[string]any{"etcdd": 1}
	ignored["_cluster"] = ignored
	assert.Equal(t, []string{warning(clusterReader, `"etcdd"`, `"etcd"`)}, ClusterWarnings(ignored))
}
