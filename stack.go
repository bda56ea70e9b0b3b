package etcdshapes

import (
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/kamaji"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/pki"
	"github.com/etcdshapes/etcdshapes/policy"
	corev1 "k8s.io/api/core/v1"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
	"k8s.io/apimachinery/pkg/runtime"
)

// Object is what every builder returns: a typed Kubernetes object with
// metadata, usable with controller-runtime clients (it is a client.Object).
type Object interface {
	metav1.Object
	runtime.Object
}

// The optional APIs of the per-cluster stack, spelled as Helm's
// .Capabilities.APIVersions.Has (and `helm template --api-versions`) spell them.
const (
	APIVerticalPodAutoscaler = "autoscaling.k8s.io/v1/VerticalPodAutoscaler"
	APIVMPodScrape           = "operator.victoriametrics.com/v1beta1/VMPodScrape"
	APICiliumNetworkPolicy   = "cilium.io/v2/CiliumNetworkPolicy"
)

// EtcdChartOptions are the inputs of the etcd chart's stack.
type EtcdChartOptions struct {
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
}

// EtcdChart returns every object the etcd chart renders, in install order.
func EtcdChart(o EtcdChartOptions) ([]Object, error) {
	if o.Release == "" {
		o.Release = naming.EtcdChartRelease
	}
	n, err := naming.ForEtcdChart(o.Namespace, o.Release)
	if err != nil {
		return nil, err
	}
	if err := validateChartVersion(o.ChartVersion); err != nil {
		return nil, err
	}
	opts := o.Etcd
	opts.ServiceLabel = etcdChartServiceLabel
	core, err := etcdObjects(n, opts, o.ChartVersion, true, true)
	if err != nil {
		return nil, err
	}
	dash, err := policy.Dashboard(n)
	if err != nil {
		return nil, err
	}
	cleanup, err := etcd.Cleanup(n, replicasOf(opts))
	if err != nil {
		return nil, err
	}
	svc, err := etcd.LegacyHeadlessService(n)
	if err != nil {
		return nil, err
	}
	rule, err := monitoring.PrometheusRule(n)
	if err != nil {
		return nil, err
	}
	keep, err := pki.KeepSecrets(n)
	if err != nil {
		return nil, err
	}
	objs := append(core, dash.Role, dash.RoleBinding, svc, rule)
	for _, s := range keep {
		objs = append(objs, s)
	}
	objs = append(objs, hookObjects(cleanup)...)
	Sort(objs)
	return objs, nil
}

// ClusterOptions are the inputs of a tenant cluster's etcd stack.
type ClusterOptions struct {
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
	// copy); StorageClassReplicated for 1 (the volume is replicated).
	StorageClassLocal      string
	StorageClassReplicated string
	// APIVersions is the set of served APIs in Helm's form; the VPA,
	// VMPodScrape and CiliumNetworkPolicy render only when listed (see the
	// API* constants).
	APIVersions []string
	// Live is the state of the management cluster the chart reads with
	// lookup.
	Live LiveState
}

// LiveState is what the kubernetes chart reads from the live cluster.
type LiveState struct {
	// DataStoreName is the live KamajiControlPlane's spec.dataStoreName;
	// empty when there is none. When it names another datastore the tenant
	// cluster stays on it and no etcd object is rendered: moving it would
	// start a Kamaji datastore migration.
	DataStoreName string
	// StorageClassName is the live EtcdCluster's
	// spec.storage.storageClassName; nil when no EtcdCluster exists. The
	// field is immutable, so a live value (even empty) wins.
	StorageClassName *string
}

// Cluster returns every object the kubernetes chart renders for its etcd,
// in install order; none when the cluster stays on a shared datastore.
//
// Every input is validated either way, so that a bad input never hides
// behind a shared datastore, except the rules of the names a rendered stack
// derives from the release (SharesDataStore): a cluster created before
// them keeps upgrading while it stays on the shared datastore.
func Cluster(o ClusterOptions) ([]Object, error) {
	shared, err := SharesDataStore(o)
	if err != nil {
		return nil, err
	}
	if err := validateChartVersion(o.ChartVersion); err != nil {
		return nil, err
	}
	apis, err := parseAPIVersions(o.APIVersions)
	if err != nil {
		return nil, err
	}
	if err := validateLive(o.Live); err != nil {
		return nil, err
	}
	replicas := o.Replicas
	if replicas == 0 {
		replicas = etcd.DefaultReplicas
	}
	if replicas != 1 && replicas != 3 {
		return nil, naming.Errorf("etcd.replicas", replicas, "must be 1 or 3")
	}
	opts := etcd.Options{
		Replicas:                  replicas,
		StorageClassName:          storageClass(o, replicas),
		Ratios:                    o.Ratios,
		TopologySpreadConstraints: o.TopologySpreadConstraints,
		ServiceLabel:              clusterServiceLabel,
	}
	if err := validateStorageClass("_cluster.etcd-storage-class-local", o.StorageClassLocal); err != nil {
		return nil, err
	}
	if err := validateStorageClass("_cluster.etcd-storage-class-replicated", o.StorageClassReplicated); err != nil {
		return nil, err
	}
	if shared {
		if err := opts.Validate(); err != nil {
			return nil, err
		}
		return []Object{}, nil
	}
	n, err := naming.ForCluster(o.Namespace, o.Release)
	if err != nil {
		return nil, err
	}
	core, err := etcdObjects(n, opts, o.ChartVersion, apis[APIVerticalPodAutoscaler], apis[APIVMPodScrape])
	if err != nil {
		return nil, err
	}
	if apis[APICiliumNetworkPolicy] {
		np, err := policy.NetworkPolicy(n)
		if err != nil {
			return nil, err
		}
		core = append(core, np)
	}
	cleanup, err := etcd.Cleanup(n, replicas)
	if err != nil {
		return nil, err
	}
	objs := append(core, hookObjects(cleanup)...)
	Sort(objs)
	return objs, nil
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
func SharesDataStore(o ClusterOptions) (bool, error) {
	own, err := naming.ClusterDataStore(o.Namespace, o.Release)
	if err != nil {
		return false, err
	}
	return o.Live.DataStoreName != "" && o.Live.DataStoreName != own, nil
}

func storageClass(o ClusterOptions, replicas int32) string {
	if o.Live.StorageClassName != nil {
		return *o.Live.StorageClassName
	}
	if replicas == 1 {
		return o.StorageClassReplicated
	}
	return o.StorageClassLocal
}

func replicasOf(o etcd.Options) int32 {
	if o.Replicas == 0 {
		return etcd.DefaultReplicas
	}
	return o.Replicas
}

// etcdObjects are the shapes both callers render.
func etcdObjects(n naming.Names, opts etcd.Options, chartVersion string, withVPA, withPodScrape bool) ([]Object, error) {
	shapes, err := etcd.Build(n, opts, withVPA)
	if err != nil {
		return nil, err
	}
	wm, err := monitoring.WorkloadMonitor(n, replicasOf(opts), chartVersion)
	if err != nil {
		return nil, err
	}
	p, err := pki.Build(n)
	if err != nil {
		return nil, err
	}
	ds, err := kamaji.DataStore(n)
	if err != nil {
		return nil, err
	}
	objs := []Object{shapes.Cluster, shapes.Defrag, wm, ds}
	for _, i := range p.Issuers() {
		objs = append(objs, i)
	}
	for _, c := range p.Certificates() {
		objs = append(objs, c)
	}
	if shapes.VPA != nil {
		objs = append(objs, shapes.VPA)
	}
	if withPodScrape {
		ps, err := monitoring.PodScrape(n)
		if err != nil {
			return nil, err
		}
		objs = append(objs, ps)
	}
	return objs, nil
}

func hookObjects(h etcd.CleanupHook) []Object {
	return []Object{h.ServiceAccount, h.Role, h.RoleBinding, h.Job}
}
