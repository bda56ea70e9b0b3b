package etcdshapes_test

import (
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/invalid"
	"github.com/stretchr/testify/require"
)

// TestAPIVersionsRefusedOnce: an entry listed twice is refused once, where
// it is first listed; malformed entries come first, then those the group
// rule refuses, each in list order.
func TestAPIVersionsRefusedOnce(t *testing.T) {
	_, err := etcdshapes.Render(etcdshapes.Request{
		Caller:    etcdshapes.CallerCluster,
		Namespace: "tenant-demo",
		Release:   "kubernetes-demo",
		APIVersions: []string{
			"cilium.io/v2", "not an api", "cilium.io/v2", "v1", "not an api", "monitoring.coreos.com/v1", "cilium.io/v2",
		},
	})
	var got []any
	for _, e := range invalid.All(err) {
		require.Equal(t, "apiVersions", e.Field)
		got = append(got, e.Value)
	}
	require.Equal(t, []any{"not an api", "cilium.io/v2", "monitoring.coreos.com/v1"}, got, err)
}
