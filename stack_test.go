package etcdshapes

import (
	"slices"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

func find[T Object](t *testing.T, objs []Object) T {
	t.Helper()
	for _, o := range objs {
		if v, ok := o.(T); ok {
			return v
		}
	}
	var zero T
	t.Fatalf("no %T in the stack", zero)
	return zero
}

func clusterOf(t *testing.T, o ClusterOptions) *v1alpha2.EtcdCluster {
	t.Helper()
	objs, err := Cluster(o)
	require.NoError(t, err)
	return find[*v1alpha2.EtcdCluster](t, objs)
}

func TestClusterStorageClass(t *testing.T) {
	base := ClusterOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", StorageClassLocal: "local", StorageClassReplicated: "replicated"}
	live := func(s string) *string { return &s }

	three := base
	assert.Equal(t, "local", clusterOf(t, three).Spec.Storage.StorageClassName, "3 replicas keep local copies")

	one := base
	one.Replicas = 1
	assert.Equal(t, "replicated", clusterOf(t, one).Spec.Storage.StorageClassName, "1 replica needs a replicated volume")

	moved := one
	moved.Live.StorageClassName = live("local")
	assert.Equal(t, "local", clusterOf(t, moved).Spec.Storage.StorageClassName, "the live class is immutable and wins")

	empty := base
	empty.Live.StorageClassName = live("")
	assert.Equal(t, "", clusterOf(t, empty).Spec.Storage.StorageClassName, "a live empty class stays empty")

	none := ClusterOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"}
	assert.Equal(t, "", clusterOf(t, none).Spec.Storage.StorageClassName)
}

func TestClusterSharedDataStore(t *testing.T) {
	o := ClusterOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: []string{APICiliumNetworkPolicy}}

	o.Live.DataStoreName = "tenant-root"
	objs, err := Cluster(o)
	require.NoError(t, err)
	assert.Empty(t, objs, "a cluster on another datastore stays there")
	shares, err := SharesDataStore(o)
	require.NoError(t, err)
	assert.True(t, shares)

	o.Live.DataStoreName = "tenant-demo.kubernetes-demo"
	objs, err = Cluster(o)
	require.NoError(t, err)
	assert.NotEmpty(t, objs, "its own datastore renders the stack")

	// Bad input is refused even when nothing would be rendered.
	o.Live.DataStoreName = "tenant-root"
	o.Replicas = 2
	_, err = Cluster(o)
	assert.Error(t, err)
}

func TestClusterOptionalAPIs(t *testing.T) {
	kinds := func(apis ...string) []string {
		objs, err := Cluster(ClusterOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: apis})
		require.NoError(t, err)
		var out []string
		for _, o := range objs {
			switch k := kindOf(o); k {
			case "VerticalPodAutoscaler", "VMPodScrape", "CiliumNetworkPolicy":
				out = append(out, k)
			}
		}
		return out
	}
	assert.Empty(t, kinds())
	assert.Equal(t, []string{"VerticalPodAutoscaler"}, kinds(APIVerticalPodAutoscaler))
	assert.Equal(t, []string{"VMPodScrape"}, kinds(APIVMPodScrape))
	assert.Equal(t, []string{"CiliumNetworkPolicy"}, kinds(APICiliumNetworkPolicy))
	// Like Helm's Capabilities.APIVersions.Has, the group/version alone does
	// not say the kind is served: beside the exact API (a cluster's whole
	// served list) it changes nothing; alone it is refused
	// (badinput_test.go), since it renders nothing extra.
	assert.Equal(t, []string{"CiliumNetworkPolicy"}, kinds("cilium.io/v2", APICiliumNetworkPolicy, "cilium.io/v2alpha1/CiliumNodeConfig", "apps/v1", "v1", "v1/Pod"))
	_, err := Cluster(ClusterOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: []string{"cilium.io/v2", "autoscaling.k8s.io/v1"}})
	require.Error(t, err)
}

func TestStacksAreWellFormed(t *testing.T) {
	stacks := map[string]func() ([]Object, error){
		"etcd": func() ([]Object, error) { return EtcdChart(EtcdChartOptions{Namespace: "tenant-root"}) },
		"cluster": func() ([]Object, error) {
			return Cluster(ClusterOptions{Namespace: "tenant-x", Release: "kubernetes-x", APIVersions: []string{APICiliumNetworkPolicy, APIVMPodScrape, APIVerticalPodAutoscaler}})
		},
	}
	for name, build := range stacks {
		objs, err := build()
		require.NoError(t, err, name)
		hooks := false
		for _, o := range objs {
			gvk := o.GetObjectKind().GroupVersionKind()
			assert.NotEmpty(t, gvk.Kind, "%s: TypeMeta set", o.GetName())
			assert.NotEmpty(t, gvk.Version, "%s: TypeMeta set", o.GetName())
			if gvk.Kind == "DataStore" {
				assert.Empty(t, o.GetNamespace(), "DataStore is cluster-scoped")
			} else {
				assert.NotEmpty(t, o.GetNamespace(), "%s %s has a namespace", gvk.Kind, o.GetName())
			}
			if isHook(o) {
				hooks = true
			} else {
				assert.False(t, hooks, "%s %s: hooks come last", gvk.Kind, o.GetName())
			}
			doc, err := MarshalObject(o)
			require.NoError(t, err)
			s := string(doc)
			assert.NotContains(t, s, "creationTimestamp", gvk.Kind)
			assert.NotContains(t, s, "\nstatus:", gvk.Kind)
			assert.NotContains(t, s, "metadata: {}", gvk.Kind)
			assert.True(t, strings.HasPrefix(s, "apiVersion: "), "%s starts with apiVersion", gvk.Kind)
		}
	}
}

func TestSortIsHelmInstallOrder(t *testing.T) {
	objs, err := EtcdChart(EtcdChartOptions{Namespace: "tenant-root"})
	require.NoError(t, err)
	var got []string
	for _, o := range objs {
		if k := kindOf(o); len(got) == 0 || got[len(got)-1] != k {
			got = append(got, k)
		}
	}
	assert.Equal(t, []string{
		"Role", "RoleBinding", "Service", "CronJob",
		"Certificate", "DataStore", "EtcdCluster", "Issuer", "PrometheusRule", "VMPodScrape", "VerticalPodAutoscaler", "WorkloadMonitor",
		"ServiceAccount", "Secret", "Role", "RoleBinding", "Job",
	}, got)
}

func TestValuesMergeLikeHelm(t *testing.T) {
	values, err := MergeValues(
		[]byte("replicas: 5\nresources:\n  memory: 1Gi\n_cluster:\n  cpu-allocation-ratio: \"4\"\n  unrelated-platform-key: x\n"),
		[]byte("replicas: 1\n"),
	)
	require.NoError(t, err)
	o, err := EtcdChartOptionsFromValues("tenant-root", "etcd", "", values)
	require.NoError(t, err)
	assert.Equal(t, int32(1), o.Etcd.Replicas, "a later file wins")
	cpu, mem := o.Etcd.Resources[corev1.ResourceCPU], o.Etcd.Resources[corev1.ResourceMemory]
	assert.Equal(t, "1", cpu.String(), "a partial resources map keeps the chart's other defaults")
	assert.Equal(t, "1Gi", mem.String())
	assert.Equal(t, "4", o.Etcd.Ratios.CPU)

	// A null deletes the chart default: no resources at all.
	values, err = MergeValues([]byte("resources:\n  cpu: 2\n"), []byte("resources: null\n"))
	require.NoError(t, err)
	o, err = EtcdChartOptionsFromValues("tenant-root", "etcd", "", values)
	require.NoError(t, err)
	objs, err := EtcdChart(o)
	require.NoError(t, err)
	assert.Nil(t, find[*v1alpha2.EtcdCluster](t, objs).Spec.Resources)

	// The kubernetes chart's other values are not ours to judge.
	values, err = MergeValues([]byte("host: example.org\nnodeGroups: {md0: {minReplicas: 2}}\netcd:\n  replicas: 1\n"))
	require.NoError(t, err)
	co, err := ClusterOptionsFromValues("tenant-demo", "kubernetes-demo", "", values)
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
	values, err := MergeValues([]byte("size: 5000000000\nresources:\n  cpu: 2\n  memory: 1073741824\n  ephemeral-storage: 5368709120.5\n  hugepages-2Mi: 4194304\n"))
	require.NoError(t, err)
	o, err := EtcdChartOptionsFromValues("tenant-root", "etcd", "", values)
	require.NoError(t, err)
	objs, err := EtcdChart(o)
	require.NoError(t, err)
	ec := find[*v1alpha2.EtcdCluster](t, objs)
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
	keys := EtcdChartValueKeys()
	require.True(t, slices.IsSorted(keys))
	keys[0] = "changed"
	require.NotEqual(t, "changed", EtcdChartValueKeys()[0], "a copy")
	for _, k := range EtcdChartValueKeys() {
		_, err := EtcdChartOptionsFromValues("tenant-root", "etcd", "", map[string]any{k: etcdChartDefaults()[k]})
		require.NoError(t, err, k)
		_, err = EtcdChartOptionsFromValues("tenant-root", "etcd", "", map[string]any{k: nil})
		var ne *naming.Error
		if k == "version" || k == "replicas" || k == "size" {
			// Known, but a null would clear the chart's default.
			require.ErrorAs(t, err, &ne, k)
			require.Equal(t, "values."+k, ne.Field)
			require.Contains(t, ne.Rule, "must be set")
		} else {
			require.NoError(t, err, k)
		}
		_, err = EtcdChartOptionsFromValues("tenant-root", "etcd", "", map[string]any{k + "x": 1})
		require.ErrorAs(t, err, &ne, k+"x")
		require.Contains(t, ne.Rule, "not a value of this chart")
	}
	require.True(t, slices.IsSorted(EtcdChartIgnoredValueKeys()))
	for _, k := range EtcdChartIgnoredValueKeys() {
		require.NotContains(t, EtcdChartValueKeys(), k)
		for _, v := range []any{nil, "x", 1, []any{1}, map[string]any{"enabled": true, "s3": map[string]any{"bucket": 7}}} {
			_, err := EtcdChartOptionsFromValues("tenant-root", "etcd", "", map[string]any{k: v})
			require.NoError(t, err, "%s: %v", k, v)
		}
	}
	require.True(t, slices.IsSorted(ClusterEtcdValueKeys()))
	for _, k := range ClusterEtcdValueKeys() {
		_, err := ClusterOptionsFromValues("tenant-demo", "kubernetes-demo", "", map[string]any{"etcd": map[string]any{k: float64(3)}})
		require.NoError(t, err, k)
		_, err = ClusterOptionsFromValues("tenant-demo", "kubernetes-demo", "", map[string]any{"etcd": map[string]any{k + "x": 1}})
		var ne *naming.Error
		require.ErrorAs(t, err, &ne, k+"x")
	}
}
