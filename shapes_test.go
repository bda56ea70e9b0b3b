package etcdshapes_test

import (
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/internal/crdpath"
	"github.com/etcdshapes/etcdshapes/kamaji"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/meta"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/schema"
	"sigs.k8s.io/yaml"
)

// TestShapesTableDescribesTheStacks: every object of every stack belongs
// to a row of the table with its kind, its caller and its hook; every row
// of a caller renders in its stack; a row with an API renders in the
// per-cluster stack exactly when that API is served.
func TestShapesTableDescribesTheStacks(t *testing.T) {
	type stack struct {
		caller naming.Caller
		served []string
		objs   func() ([]etcdshapes.Object, error)
	}
	all := etcdshapes.OptionalAPIs()
	var stacks []stack
	// Each optional API alone, then none, then all.
	for i := 0; i <= len(all)+1; i++ {
		var served []string
		switch {
		case i < len(all):
			served = []string{all[i]}
		case i == len(all)+1:
			served = all
		}
		stacks = append(stacks,
			stack{naming.CallerEtcd, served, func() ([]etcdshapes.Object, error) {
				return etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", APIVersions: served})
			}},
			stack{naming.CallerCluster, served, func() ([]etcdshapes.Object, error) {
				return etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: served})
			}})
	}
	for _, st := range stacks {
		objs, err := st.objs()
		require.NoError(t, err)
		servedSet := map[string]bool{}
		for _, a := range st.served {
			servedSet[a] = true
		}
		rendered := map[string]bool{}
		for _, o := range objs {
			gvk := o.GetObjectKind().GroupVersionKind()
			hook := o.GetAnnotations()[etcd.HookAnnotation]
			var row *etcdshapes.Shape
			for _, s := range etcdshapes.Shapes() {
				if s.Kind == gvk && s.Hook == hook && slices.Contains(s.Callers, st.caller) {
					row = &s
					break
				}
			}
			require.NotNil(t, row, "%s %s %s (hook %q) has no row for %s", gvk, o.GetNamespace(), o.GetName(), hook, st.caller)
			assert.Equal(t, row.UninstallHook(), etcdshapes.IsUninstallHook(o), "%s %s: the row's UninstallHook", gvk, o.GetName())
			assert.Equal(t, row.ClusterScoped, o.GetNamespace() == "", "%s %s: the row's ClusterScoped", gvk, o.GetName())
			rendered[row.ID] = true
		}
		for _, s := range etcdshapes.Shapes() {
			assert.Equal(t, s.RendersFor(st.caller, servedSet), rendered[s.ID], "%s in the %s stack with %v served", s.ID, st.caller, st.served)
		}
	}
}

// TestShapesTableResources: each row's resource is what its CRD (from
// ETCDSHAPES_CRDS) or the built-in API serves, ResourceFor answers it,
// and AddToScheme registers each row's kind with its list.
func TestShapesTableResources(t *testing.T) {
	plural, scope := map[string]string{}, map[string]string{}
	for _, dir := range crdpath.Dirs(os.Getenv(crdpath.EnvVar), ".") {
		files, err := filepath.Glob(filepath.Join(dir, "*.yaml"))
		require.NoError(t, err)
		for _, f := range files {
			raw, err := os.ReadFile(f)
			require.NoError(t, err)
			for _, doc := range strings.Split(string(raw), "\n---") {
				var crd struct {
					Kind string
					Spec struct {
						Group string
						Names struct{ Kind, Plural string }
						Scope string
					}
				}
				if yaml.Unmarshal([]byte(doc), &crd) == nil && crd.Kind == "CustomResourceDefinition" {
					plural[crd.Spec.Group+"/"+crd.Spec.Names.Kind] = crd.Spec.Names.Plural
					scope[crd.Spec.Group+"/"+crd.Spec.Names.Kind] = crd.Spec.Scope
				}
			}
		}
	}
	if len(plural) == 0 {
		t.Skip(crdpath.SkipMessage)
	}
	builtin := map[string]string{"CronJob": "cronjobs", "Job": "jobs", "Service": "services", "Secret": "secrets", "ServiceAccount": "serviceaccounts", "Role": "roles", "RoleBinding": "rolebindings"}
	isBuiltin := func(gk schema.GroupKind) bool {
		return gk.Group == "" || gk.Group == "batch" || gk.Group == "rbac.authorization.k8s.io"
	}
	// A custom kind without its CRD: the list is short.
	var missing []string
	for _, row := range etcdshapes.Shapes() {
		kind := row.Kind.GroupVersion().String() + "/" + row.Kind.Kind
		if _, ok := plural[row.Kind.Group+"/"+row.Kind.Kind]; !ok && !isBuiltin(row.Kind.GroupKind()) && !slices.Contains(missing, kind) {
			missing = append(missing, kind)
		}
	}
	if len(missing) > 0 {
		t.Fatal(crdpath.Partial(crdpath.Dirs(os.Getenv(crdpath.EnvVar), "."), missing))
	}
	s := runtime.NewScheme()
	require.NoError(t, etcdshapes.AddToScheme(s))
	ids := map[string]bool{}
	for _, row := range etcdshapes.Shapes() {
		assert.False(t, ids[row.ID], "ID %s twice", row.ID)
		ids[row.ID] = true
		want, ok := plural[row.Kind.Group+"/"+row.Kind.Kind]
		wantScope := scope[row.Kind.Group+"/"+row.Kind.Kind]
		if isBuiltin(row.Kind.GroupKind()) {
			want, ok = builtin[row.Kind.Kind]
			wantScope = "Namespaced" // every built-in kind of the table
		}
		require.True(t, ok, "no CRD or built-in resource for %s (%s)", row.ID, row.Kind)
		assert.Equal(t, wantScope == "Cluster", row.ClusterScoped, "%s: the CRD's scope is %q", row.ID, wantScope)
		assert.Equal(t, want, row.Resource, row.ID)
		gvr, known := etcdshapes.ResourceFor(row.Kind)
		assert.True(t, known, row.ID)
		assert.Equal(t, want, gvr.Resource, row.ID)
		obj, err := s.New(row.Kind)
		require.NoError(t, err, row.ID)
		_, err = meta.Accessor(obj)
		require.NoError(t, err, row.ID)
		_, err = s.New(row.Kind.GroupVersion().WithKind(row.Kind.Kind + "List"))
		require.NoError(t, err, row.ID)
	}
	assert.Equal(t, []string{etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape, etcdshapes.APIPodMonitor, etcdshapes.APIGrafanaDashboard, etcdshapes.APICiliumNetworkPolicy}, etcdshapes.OptionalAPIs())
}

// TestScopeIsTheFullRender: Scope, which leaves the costly dashboard model
// out of its render and adds the dashboard by name, lists exactly the
// objects of a render with every optional API, uninstall hooks and keep
// objects left out, in the same order.
func TestScopeIsTheFullRender(t *testing.T) {
	for _, tc := range []struct {
		names func() (naming.Names, error)
		full  func() ([]etcdshapes.Object, error)
	}{
		{func() (naming.Names, error) { return naming.ForEtcdChart("tenant-root", "etcd") }, func() ([]etcdshapes.Object, error) {
			return etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", APIVersions: etcdshapes.OptionalAPIs()})
		}},
		{func() (naming.Names, error) { return naming.ForCluster("tenant-demo", "kubernetes-demo") }, func() ([]etcdshapes.Object, error) {
			return etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: etcdshapes.OptionalAPIs()})
		}},
	} {
		n, err := tc.names()
		require.NoError(t, err)
		scope, err := etcdshapes.Scope(n)
		require.NoError(t, err)
		objs, err := tc.full()
		require.NoError(t, err)
		var want []etcdshapes.StackObject
		for _, o := range objs {
			if etcdshapes.IsUninstallHook(o) || etcdshapes.IsKept(o) {
				continue
			}
			want = append(want, etcdshapes.StackObject{Kind: o.GetObjectKind().GroupVersionKind(), Namespace: o.GetNamespace(), Name: o.GetName()})
		}
		assert.Equal(t, want, scope, n.Cluster)
	}
}

// TestResourceForEveryKindEmitted: every kind an object of the library is
// (both stacks with every optional API, and the builders beyond them) has
// its row's resource, which TestShapesTableResources checks against the
// CRDs and the built-in API; no other kind has one, whatever its name (no
// plural is guessed: Endpoints is "endpoints", PodMetrics "pods"), and a
// kind of the table in another group is another kind.
func TestResourceForEveryKindEmitted(t *testing.T) {
	rows := map[schema.GroupKind]string{}
	for _, row := range etcdshapes.Shapes() {
		rows[row.Kind.GroupKind()] = row.Resource
	}
	var objs []etcdshapes.Object
	add := func(o etcdshapes.Object, err error) {
		t.Helper()
		require.NoError(t, err)
		objs = append(objs, o)
	}
	etcdChart, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", APIVersions: etcdshapes.OptionalAPIs()})
	require.NoError(t, err)
	cluster, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: etcdshapes.OptionalAPIs()})
	require.NoError(t, err)
	objs = append(etcdChart, cluster...)
	n, err := naming.ForCluster("tenant-demo", "kubernetes-demo")
	require.NoError(t, err)
	dest := v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "backups"}}
	add(etcd.Snapshot(n, "now", dest))
	scheduled, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "@daily", Destination: dest})
	require.NoError(t, err)
	objs = append(objs, scheduled.Objects()...)
	add(etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{}))
	add(monitoring.PodMonitor(n))
	add(monitoring.Dashboard(n, monitoring.DashboardOptions{}))

	for _, o := range objs {
		gvk := o.GetObjectKind().GroupVersionKind()
		want, ok := rows[gvk.GroupKind()]
		require.True(t, ok, "%s: an object of a kind without a row in the table of shapes", gvk)
		gvr, known := etcdshapes.ResourceFor(gvk)
		assert.True(t, known, gvk.String())
		assert.Equal(t, gvk.GroupVersion().WithResource(want), gvr, gvk.String())
	}

	for _, gvk := range []schema.GroupVersionKind{
		{Version: "v1", Kind: "Endpoints"},
		{Group: "metrics.k8s.io", Version: "v1beta1", Kind: "PodMetrics"},
		{Group: "monitoring.coreos.com", Version: "v1", Kind: "Prometheus"},
		{Group: "networking.k8s.io", Version: "v1", Kind: "Ingress"},
		{Group: "networking.k8s.io", Version: "v1", Kind: "NetworkPolicy"},
		{Group: "security.openshift.io", Version: "v1", Kind: "SecurityContextConstraints"},
		kamaji.ControlPlaneKind, // read by the plan, never built
		{Group: "example.com", Version: "v1", Kind: "Role"},
		{Group: "serving.knative.dev", Version: "v1", Kind: "Service"},
	} {
		gvr, known := etcdshapes.ResourceFor(gvk)
		assert.False(t, known, gvk.String())
		assert.Equal(t, gvk.GroupVersion().WithResource(""), gvr, gvk.String())
	}
}
