package naming_test

import (
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The names of the extras fit their limits at the longest inputs, and the
// dashboard UID keeps the namespace and the name apart.
func TestExtrasNames(t *testing.T) {
	longNS := "tenant-" + strings.Repeat("a", 56)
	longRelease := "kubernetes-" + strings.Repeat("b", naming.MaxClusterName-len("kubernetes-")-len("-etcd"))
	n, err := naming.ForCluster(longNS, longRelease)
	require.NoError(t, err)
	require.Len(t, n.Cluster, naming.MaxClusterName)
	assert.Len(t, n.CheckJob(), naming.MaxClusterName+len("-check"))
	assert.LessOrEqual(t, len(n.CheckJob()), naming.MaxJobName)
	uid := n.DashboardUID()
	assert.Len(t, uid, naming.MaxDashboardUID)
	assert.Regexp(t, `^[a-zA-Z0-9_-]+$`, uid)
	assert.Equal(t, longNS[:naming.DashboardUIDKeep]+"-", uid[:naming.DashboardUIDKeep+1])

	short, err := naming.ForEtcdChart("tenant-root", "etcd")
	require.NoError(t, err)
	assert.Equal(t, "tenant-root_etcd", short.DashboardUID())
	assert.Equal(t, "etcd-pod-monitor", short.PodMonitor())
	assert.Equal(t, "etcd-grafana-dashboard", short.GrafanaDashboard())
	assert.Equal(t, "etcd-check", short.CheckJob())

	// tenant-a + b-etcd and tenant-a-b + etcd are different clusters.
	a, err := naming.ForCluster("tenant-a", "b")
	require.NoError(t, err)
	b, err := naming.ForEtcdChart("tenant-a-b", "etcd")
	require.NoError(t, err)
	assert.NotEqual(t, a.DashboardUID(), b.DashboardUID())

	// Hashed UIDs of names that share the readable part differ.
	x, err := naming.ForCluster(longNS, "kubernetes-x")
	require.NoError(t, err)
	y, err := naming.ForCluster(longNS, "kubernetes-y")
	require.NoError(t, err)
	assert.NotEqual(t, x.DashboardUID(), y.DashboardUID())
	assert.Equal(t, x.DashboardUID()[:naming.DashboardUIDKeep], y.DashboardUID()[:naming.DashboardUIDKeep])
}
