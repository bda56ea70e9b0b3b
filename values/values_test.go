package values_test

import (
	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	. "github.com/etcdshapes/etcdshapes/values"
	"slices"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

func TestValuesMergeLikeHelm(t *testing.T) {
	values, err := Merge(
		[]byte("replicas: 5\nresources:\n  memory: 1Gi\n_cluster:\n  cpu-allocation-ratio: \"4\"\n  unrelated-platform-key: x\n"),
		[]byte("replicas: 1\n"),
	)
	require.NoError(t, err)
	o, err := ReadEtcdChart(values)
	require.NoError(t, err)
	assert.Equal(t, int32(1), o.Replicas, "a later file wins")
	cpu, mem := o.Resources[corev1.ResourceCPU], o.Resources[corev1.ResourceMemory]
	assert.Equal(t, "1", cpu.String(), "a partial resources map keeps the chart's other defaults")
	assert.Equal(t, "1Gi", mem.String())
	assert.Equal(t, "4", o.Ratios.CPU)

	// A null deletes the chart default: no resources at all.
	values, err = Merge([]byte("resources:\n  cpu: 2\n"), []byte("resources: null\n"))
	require.NoError(t, err)
	o, err = ReadEtcdChart(values)
	require.NoError(t, err)
	objs, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Etcd: o})
	require.NoError(t, err)
	assert.Nil(t, etcdClusterOf(t, objs).Spec.Resources)

	// The kubernetes chart's other values are not ours to judge.
	values, err = Merge([]byte("host: example.org\nnodeGroups: {md0: {minReplicas: 2}}\netcd:\n  replicas: 1\n"))
	require.NoError(t, err)
	co, err := ReadCluster(values)
	require.NoError(t, err)
	assert.Equal(t, int32(1), co.Replicas)
}

// TestNumberLimitsSpelledLikeTheChart: the chart's sanitiser prints a cpu,
// memory or ephemeral-storage limit with toString (Go's %v), so a YAML
// number 1073741824 is stored as "1.073741824e+09", a quantity the API
// server keeps in that spelling; printed "1073741824" it would be another
// stored quantity and roll the members. Other resources, the requests and
// the size are not spelled by toString. ("5.3687091205e+09" is not in
// canonical form, so it is stored canonically, in its exponent form.)
func TestNumberLimitsSpelledLikeTheChart(t *testing.T) {
	values, err := Merge([]byte("size: 5000000000\nresources:\n  cpu: 2\n  memory: 1073741824\n  ephemeral-storage: 5368709120.5\n  hugepages-2Mi: 4194304\n"))
	require.NoError(t, err)
	o, err := ReadEtcdChart(values)
	require.NoError(t, err)
	objs, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Etcd: o})
	require.NoError(t, err)
	ec := etcdClusterOf(t, objs)
	spelled := map[corev1.ResourceName]string{}
	for n, q := range ec.Spec.Resources.Limits {
		spelled[n] = q.String()
	}
	assert.Equal(t, map[corev1.ResourceName]string{"cpu": "2", "memory": "1.073741824e+09", "ephemeral-storage": "5368709120500e-3", "hugepages-2Mi": "4194304"}, spelled)
	mem, req := ec.Spec.Resources.Requests[corev1.ResourceMemory], ec.Spec.Resources.Requests["hugepages-2Mi"]
	assert.Equal(t, "1073741824", mem.String())
	assert.Equal(t, "4194304", req.String())
	assert.Equal(t, "5G", ec.Spec.Storage.Size.String())
}

// The exported value keys are sorted copies, and exactly the keys the
// readers accept: each is accepted (a null too, except where it would
// clear a chart default the chart cannot do without), and a near miss is
// refused.
func TestValueKeys(t *testing.T) {
	keys := EtcdChartKeys()
	require.True(t, slices.IsSorted(keys))
	keys[0] = "changed"
	require.NotEqual(t, "changed", EtcdChartKeys()[0], "a copy")
	for _, k := range EtcdChartKeys() {
		_, err := ReadEtcdChart(map[string]any{k: chartDefaults[k]})
		require.NoError(t, err, k)
		_, err = ReadEtcdChart(map[string]any{k: nil})
		var ne *invalid.Error
		if k == "version" || k == "replicas" || k == "size" {
			// Known, but a null would clear the chart's default.
			require.ErrorAs(t, err, &ne, k)
			require.Equal(t, "values."+k, ne.Field)
			require.Contains(t, ne.Rule, "must be set")
		} else {
			require.NoError(t, err, k)
		}
		_, err = ReadEtcdChart(map[string]any{k + "x": 1})
		require.ErrorAs(t, err, &ne, k+"x")
		require.Contains(t, ne.Rule, "not a value of this chart")
	}
	require.True(t, slices.IsSorted(EtcdChartIgnoredKeys()))
	for _, k := range EtcdChartIgnoredKeys() {
		require.NotContains(t, EtcdChartKeys(), k)
		for _, v := range []any{nil, "x", 1, []any{1}, map[string]any{"enabled": true, "s3": map[string]any{"bucket": 7}}} {
			_, err := ReadEtcdChart(map[string]any{k: v})
			require.NoError(t, err, "%s: %v", k, v)
		}
	}
	require.True(t, slices.IsSorted(ClusterEtcdKeys()))
	clusterDefaults := map[string]any{"replicas": float64(3)}
	for _, k := range ClusterEtcdKeys() {
		_, err := ReadCluster(map[string]any{"etcd": map[string]any{k: clusterDefaults[k]}})
		require.NoError(t, err, k)
		_, err = ReadCluster(map[string]any{"etcd": map[string]any{k: nil}})
		require.NoError(t, err, k)
		_, err = ReadCluster(map[string]any{"etcd": map[string]any{k + "x": 1}})
		var ne *invalid.Error
		require.ErrorAs(t, err, &ne, k+"x")
	}
	// The auth map's keys, in both charts: each accepted with the value
	// absence means and null, a near miss refused under the map's key.
	require.True(t, slices.IsSorted(AuthKeys()))
	authDefaults := map[string]any{"enabled": false, "rootCredentialsSecret": ""}
	for _, k := range AuthKeys() {
		for _, v := range []any{authDefaults[k], nil} {
			_, err := ReadEtcdChart(map[string]any{"auth": map[string]any{k: v}})
			require.NoError(t, err, k)
			_, err = ReadCluster(map[string]any{"etcd": map[string]any{"auth": map[string]any{k: v}}})
			require.NoError(t, err, k)
		}
		var ne *invalid.Error
		_, err := ReadEtcdChart(map[string]any{"auth": map[string]any{k + "x": 1}})
		require.ErrorAs(t, err, &ne, k+"x")
		require.Equal(t, "values.auth."+k+"x", ne.Field)
		_, err = ReadCluster(map[string]any{"etcd": map[string]any{"auth": map[string]any{k + "x": 1}}})
		require.ErrorAs(t, err, &ne, k+"x")
		require.Equal(t, "etcd.auth."+k+"x", ne.Field)
	}
}

// chartDefaults are the etcd chart's values.yaml, as a user would copy them.
var chartDefaults = map[string]any{
	"version":      etcd.DefaultVersion,
	"replicas":     3,
	"size":         etcd.DefaultSize,
	"storageClass": "",
	"resources":    map[string]any{"cpu": etcd.DefaultCPU, "memory": etcd.DefaultMemory},
	"affinity":     map[string]any{},
}

func etcdClusterOf(t *testing.T, objs []etcdshapes.Object) *v1alpha2.EtcdCluster {
	t.Helper()
	for _, o := range objs {
		if c, ok := o.(*v1alpha2.EtcdCluster); ok {
			return c
		}
	}
	t.Fatal("no EtcdCluster in the stack")
	return nil
}
