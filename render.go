package etcdshapes

import (
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"
)

// Callers of Render.
const (
	CallerEtcd    = "etcd"
	CallerCluster = "cluster"
)

// Request is one render as chart tooling and the CLI describe it: a caller,
// where it is installed, and the chart's values (see values.Merge).
type Request struct {
	// Caller is CallerEtcd or CallerCluster.
	Caller string
	// Namespace is the tenant namespace.
	Namespace string
	// Release is the Helm release; for CallerEtcd empty means "etcd".
	Release string
	// ChartVersion is the calling chart's version; empty means "0.0.0".
	ChartVersion string
	// Values are the chart's values.
	Values map[string]any
	// APIVersions is the served API set (see EtcdChartOptions.APIVersions
	// and ClusterOptions.APIVersions).
	APIVersions []string
	// Live is the live state (CallerCluster only).
	Live LiveState
}

// Render reads the request's values in its caller's shape and builds the
// caller's stack.
func Render(r Request) ([]Object, error) {
	switch r.Caller {
	case CallerEtcd:
		if r.Release == "" {
			r.Release = naming.EtcdChartRelease
		}
		e, err := values.EtcdChart(r.Values)
		if err != nil {
			return nil, err
		}
		objs, err := EtcdChart(EtcdChartOptions{Namespace: r.Namespace, Release: r.Release, ChartVersion: r.ChartVersion, Etcd: e, APIVersions: r.APIVersions})
		return objs, values.EtcdChartError(err)
	case CallerCluster:
		c, err := values.Cluster(r.Values)
		if err != nil {
			return nil, err
		}
		objs, err := Cluster(ClusterOptions{
			Namespace:                 r.Namespace,
			Release:                   r.Release,
			ChartVersion:              r.ChartVersion,
			Replicas:                  c.Replicas,
			Ratios:                    c.Ratios,
			TopologySpreadConstraints: c.TopologySpreadConstraints,
			StorageClassLocal:         c.StorageClassLocal,
			StorageClassReplicated:    c.StorageClassReplicated,
			APIVersions:               r.APIVersions,
			Live:                      r.Live,
		})
		return objs, values.ClusterError(err)
	default:
		return nil, invalid.Errorf("caller", r.Caller, "must be %q or %q", CallerEtcd, CallerCluster)
	}
}
