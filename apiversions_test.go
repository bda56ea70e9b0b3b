package etcdshapes_test

import (
	"fmt"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/require"
)

// TestAPIVersionWarningsOnce: an entry listed twice is told once, where it
// is first listed; the entries that are no API's name come first, in list
// order, then one warning for each optional API whose group the list
// holds without it, in the table's order (OptionalAPIsOf).
func TestAPIVersionWarningsOnce(t *testing.T) {
	list := []string{"cilium.io/v2", "not an api", "cilium.io/v2", "v1", "not an api", "monitoring.coreos.com/v1", "cilium.io/v2", "", ""}
	require.Equal(t, []string{
		`apiVersions: "not an api" is not an API's name (group/version or group/version/Kind), so it matches nothing, as in Helm`,
		`apiVersions: "" is not an API's name (group/version or group/version/Kind), so it matches nothing, as in Helm`,
		`apiVersions: "monitoring.coreos.com/v1" is in the API group of monitoring.coreos.com/v1/PodMonitor, which the list does not hold, so no PodMonitor is rendered: an API is served only when listed exactly, as Helm's .Capabilities.APIVersions.Has matches it`,
		`apiVersions: "cilium.io/v2" is in the API group of cilium.io/v2/CiliumNetworkPolicy, which the list does not hold, so no CiliumNetworkPolicy is rendered: an API is served only when listed exactly, as Helm's .Capabilities.APIVersions.Has matches it`,
	}, etcdshapes.APIVersionWarnings(naming.CallerCluster, list))
	// The etcd chart renders no CiliumNetworkPolicy: its group is no
	// mistake there.
	require.Len(t, etcdshapes.APIVersionWarnings(naming.CallerEtcd, list), 3)
	// Nothing is refused, and nothing is listed for an empty list or for
	// every optional API.
	_, err := etcdshapes.Render(etcdshapes.Request{Caller: naming.CallerCluster, Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: list})
	require.NoError(t, err)
	require.Empty(t, etcdshapes.APIVersionWarnings(naming.CallerCluster, nil))
	require.Empty(t, etcdshapes.APIVersionWarnings(naming.CallerCluster, etcdshapes.OptionalAPIs()))
}

// TestAPIVersionWarningsBounded: a list of ten thousand distinct entries
// that name no API, each a kilobyte, is told in 11 warnings, and renders.
func TestAPIVersionWarningsBounded(t *testing.T) {
	pad := strings.Repeat("a", 1024)
	list := make([]string, 10_000)
	for i := range list {
		list[i] = fmt.Sprintf("%d %s", i, pad)
	}
	w := etcdshapes.APIVersionWarnings(naming.CallerCluster, list)
	require.Len(t, w, 11)
	require.Equal(t, "apiVersions: 9990 more entries are not an API's name", w[10])
	_, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo", APIVersions: list})
	require.NoError(t, err)
}
