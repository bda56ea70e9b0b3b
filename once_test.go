package etcdshapes_test

import (
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/invalidtest"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/api/resource"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// badSpread is a platform spread constraint with a bad skew.
const badSpread = "topologySpreadConstraints:\n- maxSkew: 0\n  topologyKey: zone\n  whenUnsatisfiable: DoNotSchedule\n"

// TestEachRefusalOnceInTheCallersTerms: one run with a bad value of every
// kind of check (the values reader's, the builder's, both) reports each
// field exactly once, named as that caller names it: the values keys
// through Render (the request's own inputs by RequestPaths, "namespace"
// by default), the Go fields through the stack builders ("Namespace",
// "Release", "ChartVersion", "Live.DataStoreName"). (The CLI's flags:
// cmd/etcdshapes TestEachRefusalOnceInFlagTerms.)
func TestEachRefusalOnceInTheCallersTerms(t *testing.T) {
	ratios := map[string]any{"cpu-allocation-ratio": "x", "memory-allocation-ratio": "0.5",
		"scheduling": map[string]any{"globalAppTopologySpreadConstraints": badSpread}}
	for _, c := range []struct {
		name string
		err  func() error
		want []string
	}{{
		name: "etcd chart values",
		err: func() error {
			_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "default", Values: map[string]any{
				"version": "latest", "replicas": 100, "size": "-1Gi", "storageClass": "A_B", "resources": map[string]any{"cpu": "-1", "memory": "1Gi"},
				"auth":     map[string]any{"rootCredentialsSecret": "root"},
				"affinity": map[string]any{"nodeAffinity": map[string]any{"requiredDuringSchedulingIgnoredDuringExecution": map[string]any{"nodeSelectorTerms": []any{}}}},
				"_cluster": ratios,
			}})
			return err
		},
		want: []string{"values.version", "values.replicas", "values.size", "values.resources.cpu", "_cluster.cpu-allocation-ratio",
			"_cluster.scheduling.globalAppTopologySpreadConstraints[0].maxSkew", "namespace", "values.storageClass",
			"values.affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", "values.auth.rootCredentialsSecret"},
	}, {
		name: "etcd chart Go options",
		err: func() error {
			_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "default", Etcd: etcd.Options{
				Version: "latest", Replicas: 100, Size: resource.MustParse("-1Gi"), StorageClassName: "A_B",
				Resources:                 corev1.ResourceList{"cpu": resource.MustParse("-1"), "memory": resource.MustParse("1Gi")},
				Ratios:                    etcd.Ratios{CPU: "x", Memory: "0.5"},
				Affinity:                  &corev1.Affinity{NodeAffinity: &corev1.NodeAffinity{RequiredDuringSchedulingIgnoredDuringExecution: &corev1.NodeSelector{}}},
				TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{MaxSkew: 0, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule}},
				Auth:                      etcd.Auth{RootCredentialsSecret: "root"},
			}})
			return err
		},
		want: []string{"Namespace", "Version", "Replicas", "Size", "StorageClassName", "Ratios.CPU", "Resources[cpu]",
			"TopologySpreadConstraints[0].maxSkew", "Affinity.nodeAffinity.requiredDuringSchedulingIgnoredDuringExecution.nodeSelectorTerms", "Auth.RootCredentialsSecret"},
	}, {
		name: "kubernetes chart values",
		err: func() error {
			cl := map[string]any{"etcd-storage-class-local": "A_B"}
			for k, v := range ratios {
				cl[k] = v
			}
			_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo", Values: map[string]any{
				"etcd": map[string]any{"replicas": 2, "auth": map[string]any{"rootCredentialsSecret": "root"}}, "_cluster": cl,
			}})
			return err
		},
		want: []string{"etcd.replicas", "_cluster.cpu-allocation-ratio", "_cluster.scheduling.globalAppTopologySpreadConstraints[0].maxSkew",
			"_cluster.etcd-storage-class-local", "etcd.auth.rootCredentialsSecret"},
	}, {
		name: "kubernetes chart Go options",
		err: func() error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", Replicas: 2, StorageClassLocal: "A_B",
				Ratios:                    etcd.Ratios{CPU: "x", Memory: "0.5"},
				TopologySpreadConstraints: []corev1.TopologySpreadConstraint{{MaxSkew: 0, TopologyKey: "zone", WhenUnsatisfiable: corev1.DoNotSchedule}},
				Auth:                      etcd.Auth{RootCredentialsSecret: "root"}})
			return err
		},
		want: []string{"Replicas", "StorageClassLocal", "Ratios.CPU", "TopologySpreadConstraints[0].maxSkew", "Auth.RootCredentialsSecret"},
	}, {
		name: "etcd chart names and inputs, Go options",
		err: func() error {
			_, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "default", Release: "my-etcd", ChartVersion: "one",
				Live: etcdshapes.LiveState{DataStoreName: "x"}, Etcd: etcd.Options{Size: resource.MustParse("-1Gi")}})
			return err
		},
		want: []string{"Namespace", "Release", "ChartVersion", "Live.DataStoreName", "Size"},
	}, {
		name: "kubernetes chart names and inputs, Go options",
		err: func() error {
			_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "default", Release: "Bad_", ChartVersion: "one", Replicas: 2,
				Live: etcdshapes.LiveState{DataStoreName: "Bad_", StorageClassName: ptr("A_B")}})
			return err
		},
		want: []string{"Namespace", "Release", "ChartVersion", "Live.DataStoreName", "Live.StorageClassName", "Replicas"},
	}, {
		name: "kubernetes chart names and inputs, values",
		err: func() error {
			_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "default", Release: "Bad_", ChartVersion: "one",
				Live: etcdshapes.LiveState{DataStoreName: "Bad_"}, Values: map[string]any{"etcd": map[string]any{"replicas": 2}}})
			return err
		},
		want: []string{"etcd.replicas", "namespace", "release", "chartVersion", "live.dataStoreName"},
	}, {
		name: "kubernetes chart names and inputs, values, the caller's paths",
		err: func() error {
			_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "default", Release: "1demo", ChartVersion: "one",
				Live: etcdshapes.LiveState{DataStoreName: "Bad_", StorageClassName: ptr("A_B")}, Values: map[string]any{"etcd": map[string]any{"replicas": 2}},
				Paths: flagPaths})
			return err
		},
		// "1demo" breaks only a rule of the names a rendered stack
		// needs, and the live datastore is another one's: not refused.
		want: []string{"etcd.replicas", "--namespace", "--chart-version", "--live-datastore", "--live-storage-class"},
	}, {
		name: "etcd chart names and inputs, values, the caller's paths",
		err: func() error {
			_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerEtcd, Namespace: "default", Release: "my-etcd", ChartVersion: "one",
				Values: map[string]any{"size": "-1Gi"}, Paths: flagPaths})
			return err
		},
		want: []string{"values.size", "--namespace", "RELEASE", "--chart-version"},
	}, {
		name: "a release only the rendered stack refuses, the caller's paths",
		err: func() error {
			_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "1demo", Paths: flagPaths})
			return err
		},
		want: []string{"RELEASE"},
	}} {
		t.Run(c.name, func(t *testing.T) {
			err := c.err()
			require.Equal(t, c.want, invalidtest.Fields(err), "%v", err)
		})
	}
}

// flagPaths are a command line's names of a request's inputs.
var flagPaths = etcdshapes.RequestPaths{
	Names:                naming.Paths{Namespace: field.NewPath("--namespace"), Release: field.NewPath("RELEASE")},
	ChartVersion:         field.NewPath("--chart-version"),
	LiveDataStoreName:    field.NewPath("--live-datastore"),
	LiveStorageClassName: field.NewPath("--live-storage-class"),
}
