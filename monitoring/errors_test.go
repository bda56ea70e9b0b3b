package monitoring_test

import (
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/testsupport/invalidtest"
	"github.com/etcdshapes/etcdshapes/monitoring"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
	metav1 "k8s.io/apimachinery/pkg/apis/meta/v1"
)

// TestEveryError: the names and each option of the monitoring builders are
// refused each on its own.
func TestEveryError(t *testing.T) {
	n := etcdNames(t)
	_, err := monitoring.WorkloadMonitor(naming.Names{}, -1, "one")
	invalidtest.RequireEvery(t, err, "names", "replicas", "version")
	_, err = monitoring.WorkloadMonitor(n, 3, "one")
	require.Equal(t, `version: invalid value "one": must be a chart version as Helm reads it (SemVer 2, e.g. 1.2.3 or 1.2.3-rc.1): invalid semantic version`, err.Error())

	bad := monitoring.DashboardOptions{
		Replicas:         100,
		InstanceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{"a b": "c"}, MatchExpressions: []metav1.LabelSelectorRequirement{{Key: "k", Operator: "Near"}}},
		Folder:           " ",
	}
	for _, c := range []struct {
		name   string
		names  naming.Names
		o      monitoring.DashboardOptions
		fields []string
	}{
		{"names, replicas, selector, folder", naming.Names{}, bad,
			[]string{"names", "replicas", "instanceSelector.matchLabels", "instanceSelector.matchExpressions[0].operator", "folder"}},
		{"empty cross-namespace selector and folder", n, monitoring.DashboardOptions{InstanceSelector: &metav1.LabelSelector{}, AllowCrossNamespaceImport: true, Folder: strings.Repeat("f", 256)},
			[]string{"instanceSelector", "folder"}},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := monitoring.DashboardJSON(c.names, c.o)
			invalidtest.RequireEvery(t, err, c.fields...)
			_, err = monitoring.Dashboard(c.names, c.o)
			invalidtest.RequireEvery(t, err, c.fields...)
		})
	}
	_, err = monitoring.Dashboard(n, monitoring.DashboardOptions{Replicas: -1})
	require.Equal(t, "replicas: invalid value -1: must be between 1 and 99", err.Error())
}

// TestSelectorRefusalsInOneOrder: an instance selector with several bad
// labels is refused in the same order on every run (by key), not in the
// order a map gives them.
func TestSelectorRefusalsInOneOrder(t *testing.T) {
	o := monitoring.DashboardOptions{InstanceSelector: &metav1.LabelSelector{MatchLabels: map[string]string{
		"z z": "1", "a a": "2", "m m": "3", "ok": "bad value!", "b b": "4",
	}}}
	_, first := monitoring.DashboardJSON(etcdNames(t), o)
	require.Error(t, first)
	a, z := strings.Index(first.Error(), `"a a"`), strings.Index(first.Error(), `"z z"`)
	require.True(t, a >= 0 && z > a, first.Error())
	for range 30 {
		_, err := monitoring.DashboardJSON(etcdNames(t), o)
		require.Equal(t, first.Error(), err.Error())
	}
}
