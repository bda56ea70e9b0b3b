package etcdshapes_test

import (
	"go/ast"
	"go/parser"
	"go/token"
	"go/types"
	"io/fs"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/invalid"

	"github.com/etcdshapes/etcdshapes/apis/etcd/v1alpha2"
	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/etcdshapes/etcdshapes/kamaji"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/etcdshapes/etcdshapes/pki"
	"github.com/etcdshapes/etcdshapes/policy"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// builders calls every exported constructor that takes naming.Names.
func builders() map[string]func(naming.Names) error {
	dest := v1alpha2.SnapshotLocation{PVC: &v1alpha2.PVCLocation{ClaimName: "backups"}}
	return map[string]func(naming.Names) error{
		"etcd.Cluster":       func(n naming.Names) error { _, err := etcd.Cluster(n, etcd.Options{}); return err },
		"etcd.DefragCronJob": func(n naming.Names) error { _, err := etcd.DefragCronJob(n, etcd.Options{}); return err },
		"etcd.Build":         func(n naming.Names) error { _, err := etcd.Build(n, etcd.Options{}); return err },
		"etcd.BuildAt":       func(n naming.Names) error { _, err := etcd.BuildAt(n, etcd.Options{}, etcd.Paths{}); return err },
		"etcd.VerticalPodAutoscaler": func(n naming.Names) error {
			_, err := etcd.VerticalPodAutoscaler(n, etcd.Ratios{})
			return err
		},
		"etcd.LegacyHeadlessService":      func(n naming.Names) error { _, err := etcd.LegacyHeadlessService(n); return err },
		"etcd.Cleanup":                    func(n naming.Names) error { _, err := etcd.Cleanup(n, 3); return err },
		"etcd.Snapshot":                   func(n naming.Names) error { _, err := etcd.Snapshot(n, "now", dest); return err },
		"etcd.ValidateOneOffSnapshotName": func(n naming.Names) error { return etcd.ValidateOneOffSnapshotName(n, "now") },
		"etcd.ScheduledSnapshots": func(n naming.Names) error {
			_, err := etcd.ScheduledSnapshots(n, etcd.SnapshotScheduleOptions{Schedule: "0 * * * *", Destination: dest})
			return err
		},
		"kamaji.DataStore":           func(n naming.Names) error { _, err := kamaji.DataStore(n); return err },
		"pki.Build":                  func(n naming.Names) error { _, err := pki.Build(n); return err },
		"pki.KeepSecrets":            func(n naming.Names) error { _, err := pki.KeepSecrets(n); return err },
		"monitoring.WorkloadMonitor": func(n naming.Names) error { _, err := monitoring.WorkloadMonitor(n, 3, ""); return err },
		"monitoring.PodScrape":       func(n naming.Names) error { _, err := monitoring.PodScrape(n); return err },
		"monitoring.PrometheusRule":  func(n naming.Names) error { _, err := monitoring.PrometheusRule(n); return err },
		"policy.NetworkPolicy":       func(n naming.Names) error { _, err := policy.NetworkPolicy(n); return err },
		"policy.Dashboard":           func(n naming.Names) error { _, err := policy.Dashboard(n); return err },
		"etcd.CheckJob": func(n naming.Names) error {
			_, err := etcd.CheckJob(n, etcd.Options{}, etcd.CheckOptions{})
			return err
		},
		"etcd.CheckJobAt": func(n naming.Names) error {
			_, err := etcd.CheckJobAt(n, etcd.Options{}, etcd.CheckOptions{}, etcd.Paths{})
			return err
		},
		"monitoring.PodMonitor": func(n naming.Names) error { _, err := monitoring.PodMonitor(n); return err },
		"monitoring.Dashboard": func(n naming.Names) error {
			_, err := monitoring.Dashboard(n, monitoring.DashboardOptions{})
			return err
		},
		"monitoring.DashboardJSON": func(n naming.Names) error {
			_, err := monitoring.DashboardJSON(n, monitoring.DashboardOptions{})
			return err
		},
	}
}

// TestBuildersRefuseUnmadeNames: no builder accepts a zero naming.Names, a
// literal, or a constructed one whose fields were changed; each accepts
// what ForEtcdChart and ForCluster make.
func TestBuildersRefuseUnmadeNames(t *testing.T) {
	chart, err := naming.ForEtcdChart("tenant-root", "etcd")
	require.NoError(t, err)
	cluster, err := naming.ForCluster("tenant-demo", "kubernetes-demo")
	require.NoError(t, err)
	edited := cluster
	edited.Cluster = strings.Repeat("x", 80)
	movedNS := chart
	movedNS.Namespace = "kube-system"
	for name, build := range builders() {
		t.Run(name, func(t *testing.T) {
			require.NoError(t, build(chart))
			require.NoError(t, build(cluster))
			for bad, n := range map[string]naming.Names{
				"zero":    {},
				"literal": {Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo", Cluster: "kubernetes-demo-etcd"},
				"edited":  edited,
				"moved":   movedNS,
			} {
				err := build(n)
				var ne *invalid.Error
				require.ErrorAs(t, err, &ne, bad)
				require.Equal(t, "names", ne.Field, bad)
			}
		})
	}
}

// TestBuildersListsEveryConstructor: builders holds every exported
// function of the builder packages that takes naming.Names first and can
// refuse (returns an error), so that a new builder, a new shape's first
// step, is checked against unmade names without anyone remembering to
// add it.
func TestBuildersListsEveryConstructor(t *testing.T) {
	notBuilders := map[string]string{
		"etcd.NewestSnapshot": "picks among live snapshots: with none it refuses, whatever the names (etcd's TestNewestSnapshot)",
	}
	listed := builders()
	for _, pkg := range []string{"etcd", "pki", "kamaji", "monitoring", "policy"} {
		pkgs, err := parser.ParseDir(token.NewFileSet(), pkg, func(fi fs.FileInfo) bool { return !strings.HasSuffix(fi.Name(), "_test.go") }, 0)
		require.NoError(t, err)
		for _, p := range pkgs {
			for _, f := range p.Files {
				for _, d := range f.Decls {
					fn, ok := d.(*ast.FuncDecl)
					if !ok || fn.Recv != nil || !fn.Name.IsExported() || len(fn.Type.Params.List) == 0 || fn.Type.Results == nil {
						continue
					}
					first, ok := fn.Type.Params.List[0].Type.(*ast.SelectorExpr)
					if !ok || first.Sel.Name != "Names" || types.ExprString(first.X) != "naming" {
						continue
					}
					last := fn.Type.Results.List[len(fn.Type.Results.List)-1].Type
					if types.ExprString(last) != "error" {
						continue
					}
					name := pkg + "." + fn.Name.Name
					if _, ok := notBuilders[name]; ok {
						continue
					}
					assert.Contains(t, listed, name, "%s takes naming.Names and refuses: add it to builders()", name)
				}
			}
		}
	}
}

// TestServiceLabelIsALabelValue: etcd.Options.ServiceLabel ends up as a
// label on every member pod, so it must be a label value.
func TestServiceLabelIsALabelValue(t *testing.T) {
	n, err := naming.ForCluster("tenant-demo", "kubernetes-demo")
	require.NoError(t, err)
	for _, bad := range []string{"has space", strings.Repeat("a", 64), "-leading", "trailing-", "ünicode", "a/b"} {
		_, err := etcd.Cluster(n, etcd.Options{ServiceLabel: bad})
		var ne *invalid.Error
		require.ErrorAs(t, err, &ne, bad)
		require.Equal(t, "ServiceLabel", ne.Field)
		require.Equal(t, bad, ne.Value)
	}
	for _, ok := range []string{"", "etcd", "kubernetes-etcd", strings.Repeat("a", 63), "a.b_c-d"} {
		_, err := etcd.Cluster(n, etcd.Options{ServiceLabel: ok})
		require.NoError(t, err, ok)
	}
}
