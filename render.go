package etcdshapes

import (
	"github.com/etcdshapes/etcdshapes/naming"
)

// Callers of Render.
const (
	CallerEtcd    = "etcd"
	CallerCluster = "cluster"
)

// Request is one render as chart tooling and the CLI describe it: a caller,
// where it is installed, and the chart's values (see MergeValues).
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
	// APIVersions is the served API set (CallerCluster only).
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
		o, err := EtcdChartOptionsFromValues(r.Namespace, r.Release, r.ChartVersion, r.Values)
		if err != nil {
			return nil, err
		}
		return EtcdChart(o)
	case CallerCluster:
		o, err := ClusterOptionsFromValues(r.Namespace, r.Release, r.ChartVersion, r.Values)
		if err != nil {
			return nil, err
		}
		o.APIVersions = r.APIVersions
		o.Live = r.Live
		return Cluster(o)
	default:
		return nil, naming.Errorf("caller", r.Caller, "must be %q or %q", CallerEtcd, CallerCluster)
	}
}
