package etcdshapes

import (
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
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

func clusterOf(t *testing.T, o ClusterStackOptions) *v1alpha2.EtcdCluster {
	t.Helper()
	objs, err := ClusterStack(o)
	require.NoError(t, err)
	return find[*v1alpha2.EtcdCluster](t, objs)
}

func TestClusterStorageClass(t *testing.T) {
	base := ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", StorageClassLocal: "local", StorageClassReplicated: "replicated"}
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

	none := ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo"}
	assert.Equal(t, "", clusterOf(t, none).Spec.Storage.StorageClassName)
}

func TestClusterSharedDataStore(t *testing.T) {
	o := ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: []string{APICiliumNetworkPolicy}}

	o.Live.DataStoreName = "tenant-root"
	objs, err := ClusterStack(o)
	require.NoError(t, err)
	assert.Empty(t, objs, "a cluster on another datastore stays there")
	shares, err := SharesDataStore(o)
	require.NoError(t, err)
	assert.True(t, shares)

	o.Live.DataStoreName = "tenant-demo.kubernetes-demo"
	objs, err = ClusterStack(o)
	require.NoError(t, err)
	assert.NotEmpty(t, objs, "its own datastore renders the stack")

	// Bad input is refused even when nothing would be rendered.
	o.Live.DataStoreName = "tenant-root"
	o.Replicas = 2
	_, err = ClusterStack(o)
	assert.Error(t, err)
}

func TestClusterOptionalAPIs(t *testing.T) {
	kinds := func(apis ...string) []string {
		objs, err := ClusterStack(ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: apis})
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
	// served list) it changes nothing; alone it renders nothing, and is
	// not refused (badinput_test.go's apiListInputs).
	assert.Equal(t, []string{"CiliumNetworkPolicy"}, kinds("cilium.io/v2", APICiliumNetworkPolicy, "cilium.io/v2alpha1/CiliumNodeConfig", "apps/v1", "v1", "v1/Pod"))
	assert.Empty(t, kinds("cilium.io/v2", "autoscaling.k8s.io/v1"))
}

func TestStacksAreWellFormed(t *testing.T) {
	stacks := map[string]func() ([]Object, error){
		"etcd": func() ([]Object, error) { return EtcdChartStack(EtcdChartStackOptions{Namespace: "tenant-root"}) },
		"cluster": func() ([]Object, error) {
			return ClusterStack(ClusterStackOptions{Namespace: "tenant-x", Release: "kubernetes-x", APIVersions: []string{APICiliumNetworkPolicy, APIVMPodScrape, APIVerticalPodAutoscaler}})
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
	objs, err := EtcdChartStack(EtcdChartStackOptions{Namespace: "tenant-root"})
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
