package etcdshapes

import (
	"fmt"
	"strconv"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/values"
	corev1 "k8s.io/api/core/v1"
	"k8s.io/apimachinery/pkg/util/validation/field"
)

// EtcdChartStackOptions are the inputs of the etcd chart's stack.
type EtcdChartStackOptions struct {
	// Namespace is the tenant namespace, "tenant-…".
	Namespace string
	// Release must be "etcd"; empty means "etcd".
	Release string
	// ChartVersion is the calling chart's version, shown by the
	// WorkloadMonitor; empty means "0.0.0".
	ChartVersion string
	// Etcd are the etcd's settings (the chart's values). ServiceLabel is
	// always "etcd".
	Etcd etcd.Options
	// APIVersions is the set of served APIs in Helm's form: the PodMonitor
	// and the GrafanaDashboard render only when listed (APIPodMonitor,
	// APIGrafanaDashboard); the VPA and the VMPodScrape always do, as
	// upstream's etcd chart renders them. Entries match whole, as Helm's
	// .Capabilities.APIVersions.Has matches them, and none is refused
	// (APIVersionWarnings tells the likely mistakes).
	APIVersions []string
	// Live is the live state: the etcd chart reads only its Bootstrap
	// (see LiveState.Bootstrap); DataStoreName and StorageClassName are a
	// tenant cluster's and must be empty.
	Live LiveState
}

// EtcdChartStack returns every object the etcd chart renders, in the order helm
// template prints them (Sort: Helm's install order of kinds, the hooks
// last, the pre-install Secrets among them, which helm install creates
// first).
//
// Bad input is refused with every refusal (see invalid.List): the names,
// the chart version, the live state, then the etcd's options, in that
// order. Nothing in APIVersions is refused.
func EtcdChartStack(o EtcdChartStackOptions) ([]Object, error) {
	return etcdChart(o, goPaths())
}

// inputPaths name a stack's inputs in its caller's terms (see etcd.Paths):
// a Go caller's field names (goPaths), a chart's value keys (Render, from
// values.Paths), so that each input is validated once, under its name.
type inputPaths struct {
	etcd etcd.Paths
	// names are the namespace's and the release's.
	names naming.Paths
	// chartVersion, liveDataStoreName and liveStorageClassName are the
	// chart version's and the live state's.
	chartVersion, liveDataStoreName, liveStorageClassName string
	// replicas, storageClassLocal and storageClassReplicated are
	// ClusterStackOptions' fields of those names.
	replicas, storageClassLocal, storageClassReplicated string
}

// goPaths are the stack options' Go field names ("Namespace",
// "ChartVersion", "Live.DataStoreName"). The etcd chart's etcd options
// keep their own names ("Size", not "Etcd.Size"), as before.
func goPaths() inputPaths {
	return inputPaths{etcd: etcd.GoPaths(nil), names: naming.Paths{Namespace: field.NewPath("Namespace"), Release: field.NewPath("Release")},
		chartVersion: "ChartVersion", liveDataStoreName: "Live.DataStoreName", liveStorageClassName: "Live.StorageClassName",
		replicas: "Replicas", storageClassLocal: "StorageClassLocal", storageClassReplicated: "StorageClassReplicated"}
}

// requestPaths are a Request's default names of its inputs beside its
// values (see RequestPaths), which LiveState.Validate names the live
// state by too.
func requestPaths() inputPaths {
	p := goPaths()
	p.names = naming.Paths{}
	p.chartVersion, p.liveDataStoreName, p.liveStorageClassName = "chartVersion", "live.dataStoreName", "live.storageClassName"
	return p
}

// valuesPaths are a chart's value keys (values.EtcdChartPaths,
// values.ClusterPaths).
func valuesPaths(p values.Paths, r RequestPaths) inputPaths {
	out := requestPaths()
	out.etcd = p.Etcd
	out.names = r.Names
	for _, f := range []struct {
		dst *string
		p   *field.Path
	}{{&out.chartVersion, r.ChartVersion}, {&out.liveDataStoreName, r.LiveDataStoreName}, {&out.liveStorageClassName, r.LiveStorageClassName}} {
		if f.p != nil {
			*f.dst = f.p.String()
		}
	}
	for _, f := range []struct {
		dst *string
		p   *field.Path
	}{{&out.replicas, p.Replicas}, {&out.storageClassLocal, p.StorageClassLocal}, {&out.storageClassReplicated, p.StorageClassReplicated}} {
		if f.p != nil {
			*f.dst = f.p.String()
		}
	}
	return out
}

func etcdChart(o EtcdChartStackOptions, p inputPaths) ([]Object, error) {
	if o.Release == "" {
		o.Release = naming.EtcdChartRelease
	}
	n, apis, err := o.inputs(p)
	opts := o.Etcd
	opts.ServiceLabel = etcdChartServiceLabel
	if err != nil {
		// The options are checked too, so that one run reports every
		// bad input; without a bad name or input, the build checks them.
		return nil, invalid.Join(err, p.etcd.Validate(opts))
	}
	b := stackBuild{names: n, opts: opts, paths: p.etcd, replicas: etcd.ReplicasOrDefault(opts.Replicas), chartVersion: o.ChartVersion, bootstrap: o.Live.Bootstrap}
	return b.build(naming.CallerEtcd, apis)
}

// inputs checks the names and the stack's inputs beside the etcd's
// options, each on its own.
func (o EtcdChartStackOptions) inputs(p inputPaths) (naming.Names, map[string]bool, error) {
	var c invalid.Collector
	n, err := naming.ForEtcdChartAt(o.Namespace, o.Release, p.names)
	c.Add(err)
	apis, err := stackInputs(o.ChartVersion, o.APIVersions, p)
	c.Add(err)
	if o.Live.DataStoreName != "" {
		c.Addf(p.liveDataStoreName, o.Live.DataStoreName, "must be empty: the etcd chart reads no live DataStore (a tenant cluster's live state)")
	}
	if o.Live.StorageClassName != nil {
		c.Addf(p.liveStorageClassName, *o.Live.StorageClassName, "must be unset: the etcd chart takes its storage class from values.storageClass (the live storage class is a tenant cluster's live state)")
	}
	return n, apis, c.Err()
}

// ClusterStackOptions are the inputs of a tenant cluster's etcd stack.
type ClusterStackOptions struct {
	// Namespace is the tenant namespace, "tenant-…".
	Namespace string
	// Release is the kubernetes chart's release, "kubernetes-<cluster>";
	// the etcd is named "<release>-etcd" (at most 56 characters).
	Release string
	// ChartVersion is the kubernetes chart's version; empty means "0.0.0".
	ChartVersion string
	// Replicas is 1 or 3; 0 means 3.
	Replicas int32
	// Ratios are the platform's allocation ratios (_cluster).
	Ratios etcd.Ratios
	// TopologySpreadConstraints are the platform's global constraints
	// (_cluster.scheduling); empty means the hostname spread.
	TopologySpreadConstraints []corev1.TopologySpreadConstraint
	// StorageClassLocal is used for 3 replicas (each member keeps its own
	// copy).
	StorageClassLocal string
	// StorageClassReplicated is used for 1 replica (the volume is
	// replicated underneath).
	StorageClassReplicated string
	// Auth turns on etcd authentication for a new etcd (see etcd.Auth);
	// the zero value leaves it off, as upstream does. Immutable once the
	// EtcdCluster exists.
	Auth etcd.Auth
	// APIVersions is the set of served APIs in Helm's form; the VPA,
	// VMPodScrape, CiliumNetworkPolicy, PodMonitor and GrafanaDashboard
	// render only when listed (see the API* constants). Entries match
	// whole, as Helm's .Capabilities.APIVersions.Has matches them, and
	// none is refused (APIVersionWarnings tells the likely mistakes).
	APIVersions []string
	// Live is the state of the management cluster the chart reads with
	// lookup.
	Live LiveState
}

// ClusterStack returns every object the kubernetes chart renders for its etcd,
// in the order helm template prints them (Sort); none when the cluster
// stays on a shared datastore.
//
// Every input is validated either way, so that a bad input never hides
// behind a shared datastore, except the rules of the names a rendered stack
// derives from the release (SharesDataStore): a cluster created before
// them keeps upgrading while it stays on the shared datastore.
//
// Bad input is refused with every refusal (see invalid.List), in the order
// the checks run: the namespace and release, the chart version, the live
// state, the replicas, the storage classes, then the etcd's options.
// Nothing in APIVersions is refused.
func ClusterStack(o ClusterStackOptions) ([]Object, error) {
	return cluster(o, goPaths())
}

func cluster(o ClusterStackOptions, p inputPaths) ([]Object, error) {
	var c invalid.Collector
	own, shared, apis, replicas, err := o.inputs(p)
	c.Add(err)
	opts := etcd.Options{
		Replicas:                  replicas,
		StorageClassName:          storageClass(o, replicas),
		Ratios:                    o.Ratios,
		TopologySpreadConstraints: o.TopologySpreadConstraints,
		ServiceLabel:              clusterServiceLabel,
		Auth:                      o.Auth,
	}
	var n naming.Names
	// Checked only when the namespace and release passed the shared
	// datastore's rules (own is derived), which refuse them first and the
	// same way.
	if !shared && own != "" {
		n, err = naming.ForClusterAt(o.Namespace, o.Release, p.names)
		c.Add(err)
	}
	if c.Len() > 0 {
		// The options are checked too, so that one run reports every bad
		// input, without the replica count and the storage class: both
		// are checked as the inputs they came from (Replicas;
		// StorageClassLocal, StorageClassReplicated,
		// live.storageClassName), so not again here. Zero replicas is
		// the default, which no other option depends on.
		check := opts
		check.Replicas, check.StorageClassName = 0, ""
		c.Add(p.etcd.Validate(check))
		return nil, c.Err()
	}
	if shared {
		if err := p.etcd.Validate(opts); err != nil {
			return nil, err
		}
		return []Object{}, nil
	}
	b := stackBuild{names: n, opts: opts, paths: p.etcd, replicas: replicas, chartVersion: o.ChartVersion, bootstrap: o.Live.Bootstrap}
	return b.build(naming.CallerCluster, apis)
}

// inputs checks everything of a tenant cluster's stack beside its etcd
// options and the names only a rendered stack needs, each on its own: own
// is the cluster's own DataStore name ("" when the namespace or release is
// refused), shared whether it stays on another datastore, replicas the
// count with its default applied.
func (o ClusterStackOptions) inputs(p inputPaths) (own string, shared bool, apis map[string]bool, replicas int32, err error) {
	var c invalid.Collector
	own, shared, err = o.sharesDataStore(p.names)
	c.Add(err)
	apis, err = stackInputs(o.ChartVersion, o.APIVersions, p)
	c.Add(err)
	c.Add(o.Live.validate(p))
	replicas = etcd.ReplicasOrDefault(o.Replicas)
	if replicas != 1 && replicas != 3 {
		c.Addf(p.replicas, replicas, "must be 1 or 3")
	}
	c.Add(validateStorageClass(p.storageClassLocal, o.StorageClassLocal))
	c.Add(validateStorageClass(p.storageClassReplicated, o.StorageClassReplicated))
	return own, shared, apis, replicas, c.Err()
}

// The cozystack.io/service label of each caller's member pods.
const (
	etcdChartServiceLabel = "etcd"
	clusterServiceLabel   = "kubernetes-etcd"
)

// SharesDataStore reports whether a tenant cluster stays on a datastore other
// than its own, in which case Cluster renders nothing. It needs only a
// tenant namespace and a DNS-1123 release (naming.ClusterDataStore), not
// the rules of the names a rendered stack would use.
func SharesDataStore(o ClusterStackOptions) (bool, error) {
	_, shared, err := o.sharesDataStore(naming.Paths{})
	return shared, err
}

// sharesDataStore is SharesDataStore, with the cluster's own DataStore name
// it compares the live one with ("" when it refuses).
func (o ClusterStackOptions) sharesDataStore(p naming.Paths) (own string, shared bool, err error) {
	own, err = naming.ClusterDataStoreAt(o.Namespace, o.Release, p)
	if err != nil {
		return "", false, err
	}
	return own, o.Live.DataStoreName != "" && o.Live.DataStoreName != own, nil
}

func storageClass(o ClusterStackOptions, replicas int32) string {
	if o.Live.StorageClassName != nil {
		return *o.Live.StorageClassName
	}
	if replicas == 1 {
		return o.StorageClassReplicated
	}
	return o.StorageClassLocal
}

// StorageClassWarnings says, for a tenant cluster's render request, when
// the storage class its EtcdCluster keeps (r.Live.StorageClassName: the
// field is immutable, so the live class wins) is not the one its values
// choose for a fresh cluster of the same member count
// (_cluster.etcd-storage-class-replicated for 1 member,
// _cluster.etcd-storage-class-local for 3), which one it keeps and what
// that means for the data: one member kept on the class meant for 3
// (each member its own node-local copy) loses the tenant's data with its
// node. The render CLI prints them on stderr and the plan says the same
// on the EtcdCluster (plan.ForRequest), so that a scale-down never keeps
// node-local storage silently. None for the etcd chart, a cluster on a
// shared datastore, no live class, or values the render refuses.
func StorageClassWarnings(r Request) []string {
	if r.Caller != naming.CallerCluster || r.Live.StorageClassName == nil {
		return nil
	}
	c, err := values.ReadCluster(r.Values)
	if err != nil {
		return nil
	}
	o := ClusterStackOptions{Namespace: r.Namespace, Release: r.Release, Replicas: c.Replicas,
		StorageClassLocal: c.StorageClassLocal, StorageClassReplicated: c.StorageClassReplicated, Live: r.Live}
	if shared, err := SharesDataStore(o); err != nil || shared {
		return nil
	}
	if msg := keptStorageClass(o); msg != "" {
		return []string{msg}
	}
	return nil
}

// keptStorageClass is StorageClassWarnings' message for o, "" when the
// kept class is the one the values choose.
func keptStorageClass(o ClusterStackOptions) string {
	replicas := etcd.ReplicasOrDefault(o.Replicas)
	kept := *o.Live.StorageClassName
	fresh := o
	fresh.Live.StorageClassName = nil
	want := storageClass(fresh, replicas)
	if kept == want {
		return ""
	}
	key, other, otherKey := "etcd-storage-class-local", o.StorageClassReplicated, "etcd-storage-class-replicated"
	if replicas == 1 {
		key, other, otherKey = otherKey, o.StorageClassLocal, key
	}
	msg := fmt.Sprintf("the EtcdCluster keeps its live storage class %s (spec.storage.storageClassName is immutable), not %s, which _cluster.%s chooses for a fresh %d-member cluster",
		quoteClass(kept), quoteClass(want), key, replicas)
	switch {
	case replicas == 1 && kept != "" && kept == other:
		// The class the values give 3 members, each keeping its own
		// copy on its node: one member has no other copy.
		msg += fmt.Sprintf(": its single member sits on %s, the class _cluster.%s gives 3 members (node-local storage, each member its own copy): losing that node loses the tenant's data. "+
			"To move it to %s, take a snapshot and restore it into a new cluster (docs/procedures.md, \"Recover from a snapshot\")", quoteClass(kept), otherKey, quoteClass(want))
	case replicas != 1 && kept != "" && kept == other:
		msg += fmt.Sprintf(": its %d members sit on %s, the class _cluster.%s gives 1 member (storage replicated underneath): each member keeps its own copy on replicated storage, so the data is stored %d times over and written through the replication on every commit. "+
			"To move it to %s, take a snapshot and restore it into a new cluster (docs/procedures.md, \"Recover from a snapshot\")", replicas, quoteClass(kept), otherKey, replicas, quoteClass(want))
	default:
		// A class the values choose for neither count (a platform that
		// changed its classes since): node-local or replicated is not
		// known here.
		msg += fmt.Sprintf(": %s is not a class the values choose for either member count, so whether it is node-local or replicated is not known here; "+
			"if it is node-local and the cluster has 1 member, losing that node loses the tenant's data. "+
			"To move it to %s, take a snapshot and restore it into a new cluster (docs/procedures.md, \"Recover from a snapshot\")", quoteClass(kept), quoteClass(want))
	}
	return msg
}

// quoteClass is a storage class name for a message, quoted; none is
// `"" (the cluster's default StorageClass)`.
func quoteClass(name string) string {
	if name == "" {
		return `"" (the cluster's default StorageClass)`
	}
	return strconv.Quote(name)
}
