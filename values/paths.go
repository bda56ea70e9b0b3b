package values

import (
	"github.com/etcdshapes/etcdshapes/etcd"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Paths are the value keys of a chart's values that the builders'
// options come from, so that a builder names a refusal as the chart user
// wrote it: the builder validates its options under the paths its caller
// passes (etcd.Paths), and no error is renamed afterwards.
type Paths struct {
	// Etcd names the etcd's options ("values.size",
	// "_cluster.cpu-allocation-ratio").
	Etcd etcd.Paths
	// Replicas, StorageClassLocal and StorageClassReplicated are the keys
	// of a tenant cluster's replica count and storage classes (the
	// kubernetes chart's etcd.replicas, _cluster.etcd-storage-class-*);
	// the etcd chart's replicas is Etcd.Replicas.
	Replicas, StorageClassLocal, StorageClassReplicated *field.Path
}

// The platform's keys, which both charts read under _cluster.
var (
	platformPath    = field.NewPath("_cluster")
	ratioCPU        = platformPath.Child("cpu-allocation-ratio")
	ratioMemory     = platformPath.Child("memory-allocation-ratio")
	ratioEphemeral  = platformPath.Child("ephemeral-storage-allocation-ratio")
	storageLocal    = platformPath.Child("etcd-storage-class-local")
	storageRepl     = platformPath.Child("etcd-storage-class-replicated")
	schedulingPath  = platformPath.Child("scheduling")
	spreadPath      = schedulingPath.Child("globalAppTopologySpreadConstraints")
	etcdChartRoot   = field.NewPath("values")
	clusterEtcdRoot = field.NewPath("etcd")
)

const spreadField = "_cluster.scheduling.globalAppTopologySpreadConstraints"

// platformPaths are the etcd options both charts read from _cluster.
func platformPaths(p etcd.Paths) etcd.Paths {
	p.RatioCPU, p.RatioMemory, p.RatioEphemeralStorage = ratioCPU, ratioMemory, ratioEphemeral
	p.TopologySpreadConstraints = spreadPath
	return p
}

// EtcdChartPaths are the etcd chart's value keys: "values.version",
// "values.resources.cpu", "_cluster.cpu-allocation-ratio", ….
func EtcdChartPaths() Paths {
	v := etcdChartRoot
	return Paths{Etcd: platformPaths(etcd.Paths{
		Version:                   v.Child("version"),
		Replicas:                  v.Child("replicas"),
		Size:                      v.Child("size"),
		StorageClassName:          v.Child("storageClass"),
		Resources:                 v.Child("resources"),
		ResourceNamesAsChildren:   true,
		Affinity:                  v.Child("affinity"),
		AuthRootCredentialsSecret: v.Child("auth", "rootCredentialsSecret"),
	})}
}

// ClusterPaths are the kubernetes chart's value keys of its etcd:
// "etcd.replicas", "etcd.auth.rootCredentialsSecret", the _cluster keys.
func ClusterPaths() Paths {
	e := clusterEtcdRoot
	return Paths{
		Etcd: platformPaths(etcd.Paths{
			Replicas:                  e.Child("replicas"),
			AuthRootCredentialsSecret: e.Child("auth", "rootCredentialsSecret"),
		}),
		Replicas:               e.Child("replicas"),
		StorageClassLocal:      storageLocal,
		StorageClassReplicated: storageRepl,
	}
}
