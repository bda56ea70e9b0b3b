package etcdshapes

import (
	"slices"

	cmv1 "github.com/cert-manager/cert-manager/pkg/apis/certmanager/v1"
	ciliumv2 "github.com/etcdshapes/etcdshapes/apis/cilium/v2"
	cozyv1alpha1 "github.com/etcdshapes/etcdshapes/apis/cozystack/v1alpha1"
	etcdv1alpha2 "github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	grafanav1beta1 "github.com/etcdshapes/etcdshapes/apis/grafana/v1beta1"
	kamajiv1alpha1 "github.com/etcdshapes/etcdshapes/apis/kamaji/v1alpha1"
	vmv1beta1 "github.com/etcdshapes/etcdshapes/apis/victoriametrics/v1beta1"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/kamaji"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/pki"
	"github.com/etcdshapes/etcdshapes/policy"
	monv1 "github.com/prometheus-operator/prometheus-operator/pkg/apis/monitoring/v1"
	batchv1 "k8s.io/api/batch/v1"
	corev1 "k8s.io/api/core/v1"
	rbacv1 "k8s.io/api/rbac/v1"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	vpav1 "k8s.io/autoscaler/vertical-pod-autoscaler/pkg/apis/autoscaling.k8s.io/v1"
)

// Shape is one row of the table of shapes: the objects of one kind that one
// builder makes, declared once. The stacks build from the table; the
// scheme (AddToScheme), ResourceFor, the optional APIs (OptionalAPIs), the
// plan and the apply requests read it. Adding a shape takes more than its
// row (its builder, types, CRD, the plan's tables, the charts' rules, the
// goldens): docs/architecture.md lists every step.
type Shape struct {
	// ID names the shape, e.g. "etcd-cluster", "cleanup-job".
	ID string
	// Kind is the group, version and kind of its objects.
	Kind schema.GroupVersionKind
	// Resource is the kind's API resource (its plural), e.g. "etcdclusters".
	Resource string
	// Callers are the stacks that render it (naming.CallerEtcd, naming.CallerCluster);
	// none for the shapes built outside the stacks (snapshots, checks,
	// the PodMonitor and the dashboard).
	Callers []naming.Caller
	// API, when set, is the API (in OptionalAPIs' form) that must be
	// served for a stack to render the shape, but in the stacks of
	// AlwaysFor.
	API string
	// AlwaysFor are the callers that render the shape whatever is served:
	// the etcd chart's VPA and VMPodScrape, as upstream renders them.
	AlwaysFor []naming.Caller
	// Hook is the Helm hook the shape's objects run as ("post-delete",
	// "pre-install"), or "" for a regular object; UninstallHook says
	// whether it is one that is never applied (IsUninstallHook).
	Hook string
	// ClusterScoped says the kind is cluster-scoped (the DataStore): its
	// objects have no namespace. Every other kind of the table is
	// namespaced, and its objects always have one.
	ClusterScoped bool

	addToScheme func(*runtime.Scheme) error
	build       func(*stackBuild) ([]Object, error)
}

// Shapes lists the table of shapes, in a fixed order (the stacks' objects
// are sorted by Sort, not by this order).
func Shapes() []Shape { return slices.Clone(shapes) }

// RendersFor reports whether the stack of caller renders the shape when
// served is the set of served APIs.
func (s Shape) RendersFor(caller naming.Caller, served map[string]bool) bool {
	if !slices.Contains(s.Callers, caller) {
		return false
	}
	return s.API == "" || served[s.API] || slices.Contains(s.AlwaysFor, caller)
}

var (
	both      = []naming.Caller{naming.CallerEtcd, naming.CallerCluster}
	etcdOnly  = []naming.Caller{naming.CallerEtcd}
	clusterOn = []naming.Caller{naming.CallerCluster}
)

func gvk(gv schema.GroupVersion, kind string) schema.GroupVersionKind { return gv.WithKind(kind) }

// shapes is the table. A builder function returns the shape's objects of
// one stack; bundles (the etcd package's Shapes, the PKI, the cleanup
// hook, the dashboard's access) are built once per stack (stackBuild).
var shapes = []Shape{
	{ID: "etcd-cluster", Kind: gvk(etcdv1alpha2.SchemeGroupVersion, "EtcdCluster"), Resource: "etcdclusters", Callers: both,
		addToScheme: etcdv1alpha2.AddToScheme,
		build: func(b *stackBuild) ([]Object, error) {
			s, err := b.etcd()
			if err == nil && b.bootstrap != nil {
				// The live spec.bootstrap, as it is (LiveState.Bootstrap).
				s.Cluster.Spec.Bootstrap = b.bootstrap.DeepCopy()
			}
			return []Object{s.Cluster}, err
		}},
	{ID: "defrag-cron-job", Kind: gvk(batchv1.SchemeGroupVersion, "CronJob"), Resource: "cronjobs", Callers: both,
		addToScheme: batchv1.AddToScheme,
		build:       func(b *stackBuild) ([]Object, error) { s, err := b.etcd(); return []Object{s.Defrag}, err }},
	{ID: "vertical-pod-autoscaler", Kind: gvk(vpav1.SchemeGroupVersion, "VerticalPodAutoscaler"), Resource: "verticalpodautoscalers", Callers: both,
		API: APIVerticalPodAutoscaler, AlwaysFor: etcdOnly, addToScheme: vpav1.AddToScheme,
		build: func(b *stackBuild) ([]Object, error) { s, err := b.etcd(); return []Object{s.VPA}, err }},
	{ID: "workload-monitor", Kind: gvk(cozyv1alpha1.SchemeGroupVersion, "WorkloadMonitor"), Resource: "workloadmonitors", Callers: both,
		addToScheme: cozyv1alpha1.AddToScheme,
		build: func(b *stackBuild) ([]Object, error) {
			return one(monitoring.WorkloadMonitor(b.names, b.replicas, b.chartVersion))
		}},
	{ID: "data-store", Kind: gvk(kamajiv1alpha1.SchemeGroupVersion, "DataStore"), Resource: "datastores", Callers: both,
		ClusterScoped: true, addToScheme: kamajiv1alpha1.AddToScheme,
		build: func(b *stackBuild) ([]Object, error) { return one(kamaji.DataStore(b.names)) }},
	{ID: "issuers", Kind: gvk(cmv1.SchemeGroupVersion, "Issuer"), Resource: "issuers", Callers: both,
		addToScheme: cmv1.AddToScheme,
		build: func(b *stackBuild) ([]Object, error) {
			p, err := b.pki()
			return []Object{p.SelfSigningIssuer, p.PeerIssuer, p.Issuer}, err
		}},
	{ID: "certificates", Kind: gvk(cmv1.SchemeGroupVersion, "Certificate"), Resource: "certificates", Callers: both,
		addToScheme: cmv1.AddToScheme,
		build: func(b *stackBuild) ([]Object, error) {
			p, err := b.pki()
			return []Object{p.PeerCA, p.CA, p.Server, p.Peer, p.Client}, err
		}},
	{ID: "pod-scrape", Kind: gvk(vmv1beta1.SchemeGroupVersion, "VMPodScrape"), Resource: "vmpodscrapes", Callers: both,
		API: APIVMPodScrape, AlwaysFor: etcdOnly, addToScheme: vmv1beta1.AddToScheme,
		build: func(b *stackBuild) ([]Object, error) { return one(monitoring.PodScrape(b.names)) }},
	{ID: "pod-monitor", Kind: gvk(monv1.SchemeGroupVersion, "PodMonitor"), Resource: "podmonitors", Callers: both,
		API: APIPodMonitor, addToScheme: monv1.AddToScheme,
		build: func(b *stackBuild) ([]Object, error) { return one(monitoring.PodMonitor(b.names)) }},
	{ID: "grafana-dashboard", Kind: gvk(grafanav1beta1.SchemeGroupVersion, "GrafanaDashboard"), Resource: "grafanadashboards", Callers: both,
		API: APIGrafanaDashboard, addToScheme: grafanav1beta1.AddToScheme,
		build: func(b *stackBuild) ([]Object, error) {
			return one(monitoring.Dashboard(b.names, monitoring.DashboardOptions{Replicas: b.replicas}))
		}},
	{ID: "network-policy", Kind: gvk(ciliumv2.SchemeGroupVersion, "CiliumNetworkPolicy"), Resource: "ciliumnetworkpolicies", Callers: clusterOn,
		API: APICiliumNetworkPolicy, addToScheme: ciliumv2.AddToScheme,
		build: func(b *stackBuild) ([]Object, error) { return one(policy.NetworkPolicy(b.names)) }},
	{ID: "dashboard-role", Kind: gvk(rbacv1.SchemeGroupVersion, "Role"), Resource: "roles", Callers: etcdOnly,
		addToScheme: rbacv1.AddToScheme,
		build:       func(b *stackBuild) ([]Object, error) { d, err := b.dashboard(); return []Object{d.Role}, err }},
	{ID: "dashboard-role-binding", Kind: gvk(rbacv1.SchemeGroupVersion, "RoleBinding"), Resource: "rolebindings", Callers: etcdOnly,
		addToScheme: rbacv1.AddToScheme,
		build:       func(b *stackBuild) ([]Object, error) { d, err := b.dashboard(); return []Object{d.RoleBinding}, err }},
	{ID: "legacy-headless-service", Kind: gvk(corev1.SchemeGroupVersion, "Service"), Resource: "services", Callers: etcdOnly,
		addToScheme: corev1.AddToScheme,
		build:       func(b *stackBuild) ([]Object, error) { return one(etcd.LegacyHeadlessService(b.names)) }},
	{ID: "prometheus-rule", Kind: gvk(monv1.SchemeGroupVersion, "PrometheusRule"), Resource: "prometheusrules", Callers: etcdOnly,
		addToScheme: monv1.AddToScheme,
		build:       func(b *stackBuild) ([]Object, error) { return one(monitoring.PrometheusRule(b.names)) }},
	{ID: "keep-secrets", Kind: gvk(corev1.SchemeGroupVersion, "Secret"), Resource: "secrets", Callers: etcdOnly, Hook: "pre-install",
		addToScheme: corev1.AddToScheme,
		build: func(b *stackBuild) ([]Object, error) {
			keep, err := pki.KeepSecrets(b.names)
			out := make([]Object, len(keep))
			for i, s := range keep {
				out[i] = s
			}
			return out, err
		}},
	{ID: "cleanup-service-account", Kind: gvk(corev1.SchemeGroupVersion, "ServiceAccount"), Resource: "serviceaccounts", Callers: both, Hook: "post-delete",
		addToScheme: corev1.AddToScheme,
		build:       func(b *stackBuild) ([]Object, error) { h, err := b.cleanup(); return []Object{h.ServiceAccount}, err }},
	{ID: "cleanup-role", Kind: gvk(rbacv1.SchemeGroupVersion, "Role"), Resource: "roles", Callers: both, Hook: "post-delete",
		addToScheme: rbacv1.AddToScheme,
		build:       func(b *stackBuild) ([]Object, error) { h, err := b.cleanup(); return []Object{h.Role}, err }},
	{ID: "cleanup-role-binding", Kind: gvk(rbacv1.SchemeGroupVersion, "RoleBinding"), Resource: "rolebindings", Callers: both, Hook: "post-delete",
		addToScheme: rbacv1.AddToScheme,
		build:       func(b *stackBuild) ([]Object, error) { h, err := b.cleanup(); return []Object{h.RoleBinding}, err }},
	{ID: "cleanup-job", Kind: gvk(batchv1.SchemeGroupVersion, "Job"), Resource: "jobs", Callers: both, Hook: "post-delete",
		addToScheme: batchv1.AddToScheme,
		build:       func(b *stackBuild) ([]Object, error) { h, err := b.cleanup(); return []Object{h.Job}, err }},

	// Built outside the stacks only, by their own constructors.
	{ID: "snapshot", Kind: gvk(etcdv1alpha2.SchemeGroupVersion, "EtcdSnapshot"), Resource: "etcdsnapshots", addToScheme: etcdv1alpha2.AddToScheme},
	{ID: "snapshot-schedule-cron-job", Kind: gvk(batchv1.SchemeGroupVersion, "CronJob"), Resource: "cronjobs", addToScheme: batchv1.AddToScheme},
	{ID: "check-job", Kind: gvk(batchv1.SchemeGroupVersion, "Job"), Resource: "jobs", addToScheme: batchv1.AddToScheme},
}

// one is a single built object as a shape's list.
func one[T Object](o T, err error) ([]Object, error) {
	if err != nil {
		return nil, err
	}
	return []Object{o}, nil
}

// stackBuild is one stack being built: its inputs, and the bundles several
// shapes share, each built (and its options resolved) once.
type stackBuild struct {
	names        naming.Names
	opts         etcd.Options
	paths        etcd.Paths // name the options in the caller's terms
	replicas     int32
	chartVersion string
	bootstrap    *etcdv1alpha2.BootstrapSpec // the live EtcdCluster's

	shapes     lazy[etcd.Shapes]
	certs      lazy[pki.PKI]
	access     lazy[policy.DashboardAccess]
	cleanupJob lazy[etcd.CleanupHook]
}

// lazy is a bundle built on first use.
type lazy[T any] struct {
	done bool
	v    T
	err  error
}

func (l *lazy[T]) get(build func() (T, error)) (T, error) {
	if !l.done {
		l.v, l.err = build()
		l.done = true
	}
	return l.v, l.err
}

func (b *stackBuild) etcd() (etcd.Shapes, error) {
	return b.shapes.get(func() (etcd.Shapes, error) { return etcd.BuildAt(b.names, b.opts, b.paths) })
}

func (b *stackBuild) pki() (pki.PKI, error) {
	return b.certs.get(func() (pki.PKI, error) { return pki.Build(b.names) })
}

func (b *stackBuild) dashboard() (policy.DashboardAccess, error) {
	return b.access.get(func() (policy.DashboardAccess, error) { return policy.Dashboard(b.names) })
}

func (b *stackBuild) cleanup() (etcd.CleanupHook, error) {
	return b.cleanupJob.get(func() (etcd.CleanupHook, error) { return etcd.Cleanup(b.names, b.replicas) })
}

// build renders the shapes of caller that served allows, sorted.
func (b *stackBuild) build(caller naming.Caller, served map[string]bool) ([]Object, error) {
	objs := make([]Object, 0, 24)
	for i := range shapes {
		s := &shapes[i]
		if !s.RendersFor(caller, served) {
			continue
		}
		out, err := s.build(b)
		if err != nil {
			return nil, err
		}
		objs = append(objs, out...)
	}
	Sort(objs)
	return objs, nil
}

// resourceOf is the table's resource of each group and kind.
var resourceOf = func() map[schema.GroupKind]string {
	m := make(map[schema.GroupKind]string, len(shapes))
	for _, s := range shapes {
		m[s.Kind.GroupKind()] = s.Resource
	}
	return m
}()

// ResourceFor is the API resource of a kind the library builds: the
// table's (Shapes), in gvk's group and version, matched by group and kind.
// For any other kind ok is false and the resource is empty: a resource is
// not derivable from a kind's name (Endpoints is "endpoints", PodMetrics
// "pods"), so ask the API server's discovery (a RESTMapper) for it.
func ResourceFor(gvk schema.GroupVersionKind) (gvr schema.GroupVersionResource, ok bool) {
	gvr = gvk.GroupVersion().WithResource("")
	gvr.Resource, ok = resourceOf[gvk.GroupKind()]
	return gvr, ok
}
