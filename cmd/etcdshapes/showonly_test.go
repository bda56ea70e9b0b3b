package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/runtime/schema"
)

// kindOf is a document's group, version and kind.
func kindOf(t *testing.T, doc map[string]any) schema.GroupVersionKind {
	t.Helper()
	gv, err := schema.ParseGroupVersion(doc["apiVersion"].(string))
	require.NoError(t, err)
	return gv.WithKind(doc["kind"].(string))
}

// TestShowOnlyKind: --show-only KIND, a bare kind, prints every object of
// the kind and nothing else, in the render's order, for every kind of
// both stacks (every optional API served, the uninstall hooks included)
// and of the snapshot and check commands, in every spelling: the kind as
// Kubernetes spells it, in lower and upper case, its resource, either
// with its group, and KIND/*.
func TestShowOnlyKind(t *testing.T) {
	apis := strings.Join(append(append([]string{}, golden.AllAPIs...), golden.MonitoringAPIs...), ",")
	for _, base := range [][]string{
		{"render", "etcd", "-n", "tenant-root", "-a", apis, "--include-hooks"},
		{"render", "cluster", "kubernetes-demo", "-n", "tenant-demo", "-a", apis, "--include-hooks"},
		{"render", "snapshot", "cluster", "kubernetes-demo", "-n", "tenant-demo", "--schedule", "@daily", "--pvc", "backups"},
		{"render", "check", "etcd", "-n", "tenant-root"},
	} {
		all := yamlDocs(t, ok(t, "", base...))
		var kinds []schema.GroupVersionKind
		for _, d := range all {
			if k := kindOf(t, d); !slices.Contains(kinds, k) {
				kinds = append(kinds, k)
			}
		}
		require.NotEmpty(t, kinds)
		for _, k := range kinds {
			var want []map[string]any
			for _, d := range all {
				if kindOf(t, d) == k {
					want = append(want, d)
				}
			}
			gvr, known := etcdshapes.ResourceFor(k)
			require.True(t, known, "%s is a kind of the table of shapes", k)
			resource := gvr.Resource
			spellings := []string{k.Kind, strings.ToLower(k.Kind), strings.ToUpper(k.Kind), resource, k.Kind + "/*"}
			if k.Group != "" {
				spellings = append(spellings, resource+"."+k.Group, strings.ToLower(k.Kind)+"."+k.Group)
			}
			for _, s := range spellings {
				args := append(append([]string{}, base...), "--show-only", s)
				t.Run(strings.Join(args, " "), func(t *testing.T) {
					assert.Equal(t, want, yamlDocs(t, ok(t, "", args...)))
				})
			}
		}
	}
}

// TestShowOnlyKindNotRendered: a --show-only KIND the render holds no
// object of is refused (exit 1, one line, nothing on stdout) with the
// kinds it holds, sorted, as Kubernetes spells them: the kinds it prints,
// then, without --include-hooks, the kinds of the Helm uninstall hooks it
// leaves out, apart and saying so (a Job, a ServiceAccount the stacks
// render only as hooks are no kind of the render); a kind the stack
// renders only where its optional API is served says so and names the
// API. The class: kinds no command renders, names given as kinds, a kind
// in another group, and every optional kind of both stacks, unserved,
// with and without --include-hooks.
func TestShowOnlyKindNotRendered(t *testing.T) {
	type command struct {
		args  []string
		kinds string // the kinds it renders
	}
	const hooks = "; its Helm uninstall hooks, which render leaves out without --include-hooks: Job, Role, RoleBinding, ServiceAccount"
	etcdKinds := "CronJob, DataStore, EtcdCluster, Issuer, Certificate, PrometheusRule, Role, RoleBinding, Secret, Service, VMPodScrape, VerticalPodAutoscaler, WorkloadMonitor"
	clusterKinds := "CronJob, DataStore, EtcdCluster, Issuer, Certificate, WorkloadMonitor"
	sorted := func(s string) string {
		l := strings.Split(s, ", ")
		slices.Sort(l)
		return strings.Join(slices.Compact(l), ", ")
	}
	commands := map[string]command{
		"etcd":                    {[]string{"render", "etcd", "-n", "tenant-root"}, sorted(etcdKinds) + hooks},
		"cluster":                 {[]string{"render", "cluster", "kubernetes-demo", "-n", "tenant-demo"}, sorted(clusterKinds) + hooks},
		"etcd --include-hooks":    {[]string{"render", "etcd", "-n", "tenant-root", "--include-hooks"}, sorted(etcdKinds + ", Job, ServiceAccount")},
		"cluster --include-hooks": {[]string{"render", "cluster", "kubernetes-demo", "-n", "tenant-demo", "--include-hooks"}, sorted(clusterKinds + ", Job, Role, RoleBinding, ServiceAccount")},
		"snapshot":                {[]string{"render", "snapshot", "etcd", "-n", "tenant-root", "--name", "now", "--pvc", "backups"}, "EtcdSnapshot"},
		"check":                   {[]string{"render", "check", "cluster", "kubernetes-demo", "-n", "tenant-demo"}, "Job"},
	}
	// The kinds each command prints are those of its output (the hooks'
	// with --include-hooks): the lists above are the render's.
	for name, c := range commands {
		var printed []string
		for _, d := range yamlDocs(t, ok(t, "", c.args...)) {
			printed = append(printed, kindOf(t, d).Kind)
		}
		want, _, _ := strings.Cut(c.kinds, ";")
		require.Equal(t, want, sorted(strings.Join(printed, ", ")), name)
	}
	for _, tc := range []struct {
		command, sel, why string
	}{
		{"etcd", "Pod", ""},
		{"etcd", "Deployment", ""},
		{"etcd", "etcd", ""}, // a name, not a kind
		{"etcd", "EtcdCluster.example.com", ""},
		{"etcd", "etcdclusters.example.com", ""},
		{"etcd", "CiliumNetworkPolicy", ""}, // the etcd stack never renders it
		{"cluster", "Secret", ""},
		{"cluster", "Service", ""},
		{"cluster", "EtcdSnapshot", ""},
		{"snapshot", "EtcdCluster", ""},
		{"snapshot", "CronJob", ""},
		{"check", "CronJob", ""},
		{"etcd --include-hooks", "Pod", ""},
		{"cluster --include-hooks", "Deployment", ""},
		{"etcd", "PodMonitor", " (the etcd stack renders PodMonitor only where its API is served: --api-versions " + etcdshapes.APIPodMonitor + ")"},
		{"etcd", "grafanadashboards", " (the etcd stack renders GrafanaDashboard only where its API is served: --api-versions " + etcdshapes.APIGrafanaDashboard + ")"},
		{"cluster", "CiliumNetworkPolicy", " (the cluster stack renders CiliumNetworkPolicy only where its API is served: --api-versions " + etcdshapes.APICiliumNetworkPolicy + ")"},
		{"cluster", "ciliumnetworkpolicies.cilium.io", " (the cluster stack renders CiliumNetworkPolicy only where its API is served: --api-versions " + etcdshapes.APICiliumNetworkPolicy + ")"},
		{"cluster", "VerticalPodAutoscaler", " (the cluster stack renders VerticalPodAutoscaler only where its API is served: --api-versions " + etcdshapes.APIVerticalPodAutoscaler + ")"},
		{"cluster", "vmpodscrape", " (the cluster stack renders VMPodScrape only where its API is served: --api-versions " + etcdshapes.APIVMPodScrape + ")"},
		{"cluster", "PodMonitor", " (the cluster stack renders PodMonitor only where its API is served: --api-versions " + etcdshapes.APIPodMonitor + ")"},
		{"cluster", "GrafanaDashboard", " (the cluster stack renders GrafanaDashboard only where its API is served: --api-versions " + etcdshapes.APIGrafanaDashboard + ")"},
	} {
		c := commands[tc.command]
		args := append(append([]string{}, c.args...), "--show-only", tc.sel)
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stdout, stderr := cli(t, "", args...)
			require.Equal(t, exitError, code, stderr)
			assert.Empty(t, stdout)
			assert.Equal(t, `etcdshapes: --show-only: invalid value "`+tc.sel+`": names no kind this render holds`+tc.why+"; its kinds: "+c.kinds+"\n", stderr)
		})
	}
}

// TestShowOnlyNameNotRendered: a --show-only KIND/NAME whose kind the
// render holds but not the name is refused with the objects of the kind
// it prints, and, without --include-hooks, the uninstall hooks of that
// kind apart, saying render leaves them out.
func TestShowOnlyNameNotRendered(t *testing.T) {
	const leftOut = "; its Helm uninstall hooks, which render leaves out without --include-hooks: "
	for _, tc := range []struct {
		args []string
		sel  string
		want string
	}{
		{[]string{"render", "etcd", "-n", "tenant-root"}, "Secret/nope", "rendered of that kind: Secret/etcd-ca-tls, Secret/etcd-client-tls"},
		{[]string{"render", "etcd", "-n", "tenant-root"}, "Role/nope", "rendered of that kind: Role/etcd-dashboard-resources" + leftOut + "Role/etcd-cleanup"},
		{[]string{"render", "etcd", "-n", "tenant-root", "--include-hooks"}, "Role/nope", "rendered of that kind: Role/etcd-dashboard-resources, Role/etcd-cleanup"},
		{[]string{"render", "cluster", "kubernetes-demo", "-n", "tenant-demo"}, "Job/nope", "the render holds none of that kind" + leftOut + "Job/kubernetes-demo-etcd-cleanup"},
		{[]string{"render", "cluster", "kubernetes-demo", "-n", "tenant-demo", "--include-hooks"}, "Job/nope", "rendered of that kind: Job/kubernetes-demo-etcd-cleanup"},
	} {
		args := append(append([]string{}, tc.args...), "--show-only", tc.sel)
		t.Run(strings.Join(args, " "), func(t *testing.T) {
			code, stdout, stderr := cli(t, "", args...)
			require.Equal(t, exitError, code, stderr)
			assert.Empty(t, stdout)
			assert.Equal(t, `etcdshapes: --show-only: invalid value "`+tc.sel+`": matches no rendered object; `+tc.want+"\n", stderr)
		})
	}
}
