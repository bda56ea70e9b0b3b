package values

import (
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"
)

// A builder names a refused field in its Go caller's terms (etcd.Options'
// "Size", "Resources[cpu]", "TopologySpreadConstraints[0].maxSkew"); a
// chart user wrote a values key. These tables take one to the other, so
// that each reader of an error sees the path it wrote.
var (
	etcdChartPaths = []reroot{
		{"Version", "values.version"},
		{"Replicas", "values.replicas"},
		{"Size", "values.size"},
		{"StorageClassName", "values.storageClass"},
		{"Resources", "values.resources"},
		{"Affinity", "values.affinity"},
		{"Ratios.CPU", "_cluster.cpu-allocation-ratio"},
		{"Ratios.Memory", "_cluster.memory-allocation-ratio"},
		{"Ratios.EphemeralStorage", "_cluster.ephemeral-storage-allocation-ratio"},
		{"TopologySpreadConstraints", spreadField},
		{"Auth.RootCredentialsSecret", "values.auth.rootCredentialsSecret"},
		// The cleanup hook's replica count is the chart's replicas.
		{"replicas", "values.replicas"},
	}
	clusterPaths = []reroot{
		{"Replicas", "etcd.replicas"},
		{"replicas", "etcd.replicas"},
		{"StorageClassLocal", "_cluster.etcd-storage-class-local"},
		{"StorageClassReplicated", "_cluster.etcd-storage-class-replicated"},
		{"Ratios.CPU", "_cluster.cpu-allocation-ratio"},
		{"Ratios.Memory", "_cluster.memory-allocation-ratio"},
		{"Ratios.EphemeralStorage", "_cluster.ephemeral-storage-allocation-ratio"},
		{"TopologySpreadConstraints", spreadField},
		{"Auth.RootCredentialsSecret", "etcd.auth.rootCredentialsSecret"},
	}
)

type reroot struct{ goPath, valuesPath string }

// EtcdChartError returns err with the field of its *invalid.Error (when
// err is one), or of each element of its invalid.List, re-rooted from
// etcd.Options' Go names to the etcd chart's value keys: "Size" becomes
// "values.size", "Resources[cpu]" "values.resources.cpu". Any other error
// is returned as it is.
func EtcdChartError(err error) error { return rerootError(err, etcdChartPaths) }

// ClusterError is EtcdChartError for the kubernetes chart's values:
// "Replicas" becomes "etcd.replicas", "StorageClassLocal"
// "_cluster.etcd-storage-class-local".
func ClusterError(err error) error { return rerootError(err, clusterPaths) }

// rerootError re-roots a refusal, or every refusal of a list, keeping the
// list's order; a wrapped error is left alone, as its wrapper's message
// already names the field.
func rerootError(err error, table []reroot) error {
	switch t := err.(type) {
	case *invalid.Error:
		if t == nil {
			return err
		}
		return rerootOne(t, table)
	case invalid.List:
		out := make(invalid.List, len(t))
		for i, e := range t {
			if e != nil {
				e = rerootOne(e, table)
			}
			out[i] = e
		}
		return out
	}
	return err
}

func rerootOne(e *invalid.Error, table []reroot) *invalid.Error {
	for _, r := range table {
		rest, ok := strings.CutPrefix(e.Field, r.goPath)
		if !ok || (rest != "" && rest[0] != '.' && rest[0] != '[') {
			continue
		}
		// A map key in Go's path, "[cpu]", is a key of the values map.
		if strings.HasPrefix(rest, "[") && r.goPath == "Resources" {
			if end := strings.IndexByte(rest, ']'); end > 0 {
				rest = "." + rest[1:end] + rest[end+1:]
			}
		}
		c := *e
		c.Field = r.valuesPath + rest
		return &c
	}
	return e
}
