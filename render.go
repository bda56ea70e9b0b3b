package etcdshapes

import (
	"strings"

	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// Request is one render as chart tooling and the CLI describe it: a caller,
// where it is installed, and the chart's values (see values.Merge).
type Request struct {
	// Caller is naming.CallerEtcd or naming.CallerCluster; any other
	// value is refused (naming.Caller.Validate, field "caller").
	Caller naming.Caller
	// Namespace is the tenant namespace.
	Namespace string
	// Release is the Helm release; for naming.CallerEtcd empty means "etcd".
	Release string
	// ChartVersion is the calling chart's version; empty means "0.0.0".
	ChartVersion string
	// Values are the chart's values.
	Values map[string]any
	// APIVersions is the served API set (see EtcdChartStackOptions.APIVersions
	// and ClusterStackOptions.APIVersions).
	APIVersions []string
	// Live is the live state: DataStoreName and StorageClassName are a
	// tenant cluster's (naming.CallerCluster; naming.CallerEtcd ignores them), Bootstrap
	// is read by both callers.
	Live LiveState
	// Paths name the request's inputs beside its values in the caller's
	// terms (the CLI's flags); the zero value names them as the fields
	// of a request ("namespace", "chartVersion", "live.dataStoreName").
	Paths RequestPaths
}

// RequestPaths name a Request's inputs beside its values, whose refusals
// name their value keys: a refusal names the input as the caller wrote
// it ("--namespace", "--chart-version" for a command line), each input
// validated once, under its path. A nil path is the default in
// parentheses.
type RequestPaths struct {
	// Names are the namespace's ("namespace") and the release's
	// ("release").
	Names naming.Paths
	// ChartVersion is the chart version's ("chartVersion").
	ChartVersion *field.Path
	// LiveDataStoreName and LiveStorageClassName are the live state's
	// ("live.dataStoreName", "live.storageClassName").
	LiveDataStoreName, LiveStorageClassName *field.Path
}

// Render reads the request's values in its caller's shape and builds the
// caller's stack.
//
// Bad input is refused with every refusal (see invalid.List), each once and
// named by its values key: those of the values first, in the order the
// values reader checks them (so the first is the one the chart prints),
// then those of the stack's other inputs and of the options read. The
// stack validates the options under the chart's value keys
// (values.EtcdChartPaths, values.ClusterPaths); a value the reader refused
// reaches it as its zero, the default, so no field is refused twice.
func Render(r Request) ([]Object, error) {
	switch r.Caller {
	case naming.CallerEtcd:
		if r.Release == "" {
			r.Release = naming.EtcdChartRelease
		}
		e, verr := values.ReadEtcdChart(r.Values)
		// Built even when the values are refused, to report the other
		// inputs' refusals too.
		objs, err := etcdChart(EtcdChartStackOptions{Namespace: r.Namespace, Release: r.Release, ChartVersion: r.ChartVersion, Etcd: e, APIVersions: r.APIVersions,
			Live: LiveState{Bootstrap: r.Live.Bootstrap}}, valuesPaths(values.EtcdChartPaths(), r.Paths))
		return renderResult(r.Values, objs, verr, err)
	case naming.CallerCluster:
		c, verr := values.ReadCluster(r.Values)
		objs, err := cluster(ClusterStackOptions{
			Namespace:                 r.Namespace,
			Release:                   r.Release,
			ChartVersion:              r.ChartVersion,
			Replicas:                  c.Replicas,
			Ratios:                    c.Ratios,
			TopologySpreadConstraints: c.TopologySpreadConstraints,
			StorageClassLocal:         c.StorageClassLocal,
			StorageClassReplicated:    c.StorageClassReplicated,
			Auth:                      c.Auth,
			APIVersions:               r.APIVersions,
			Live:                      r.Live,
		}, valuesPaths(values.ClusterPaths(), r.Paths))
		return renderResult(r.Values, objs, verr, err)
	default:
		return nil, r.Caller.Validate("caller")
	}
}

// renderResult is the values reader's refusals followed by the stack's
// (each quoting its value as written), or the stack's objects.
func renderResult(vals map[string]any, objs []Object, verr, err error) ([]Object, error) {
	err = asWritten(vals, err)
	if verr != nil {
		return nil, invalid.Join(verr, err)
	}
	return objs, err
}

// asWritten gives each of the builder's refusals of a scalar of the
// request's values (values.size, values.resources.<name>, a _cluster
// ratio) that scalar as the values hold it, as written: the builder
// quotes what it read, re-spelled (a quantity in its canonical form, "9E"
// for "9000000000000000000"; a ratio as a string), and a refusal quotes
// the input as written. A refusal that quotes the key itself (a resource's
// name) is kept, and so is any other error.
func asWritten(vals map[string]any, err error) error {
	if err == nil {
		return nil
	}
	var c invalid.Collector
	c.AddEach(err, func(e *invalid.Error) *invalid.Error {
		raw, key, ok := writtenScalar(vals, e.Field)
		if !ok || e.Value == key {
			return e
		}
		cp := *e
		cp.Value = raw
		return &cp
	})
	return c.Err()
}

// writtenScalar is the scalar of vals that field names, and its key: a
// top-level key as "values.<key>", a resource as
// "values.resources.<name>" (a name may hold dots), a platform value as
// "_cluster.<key>". ok is false when there is none.
func writtenScalar(vals map[string]any, field string) (raw any, key string, ok bool) {
	m := vals
	switch {
	case strings.HasPrefix(field, "values.resources."):
		m, _ = vals["resources"].(map[string]any)
		key = strings.TrimPrefix(field, "values.resources.")
	case strings.HasPrefix(field, "_cluster."):
		m, _ = vals["_cluster"].(map[string]any)
		key = strings.TrimPrefix(field, "_cluster.")
	case strings.HasPrefix(field, "values."):
		key = strings.TrimPrefix(field, "values.")
	default:
		return nil, "", false
	}
	raw, ok = m[key]
	switch raw.(type) {
	case nil, map[string]any, []any:
		return nil, "", false
	}
	return raw, key, ok
}
