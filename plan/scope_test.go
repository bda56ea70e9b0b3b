package plan_test

import (
	"github.com/etcdshapes/etcdshapes/plan"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/naming"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The objects a stack renders depend on its names and served APIs, never
// on its values or live state: a render with every optional API is the
// stack's scope (what a plan may delete), for every golden scenario that
// renders a stack. plan.ForRequest relies on it to render once.
func TestScopeOfARenderIsTheStacks(t *testing.T) {
	for _, s := range golden.All() {
		req, err := s.Request()
		require.NoError(t, err)
		var n naming.Names
		req.APIVersions = etcdshapes.OptionalAPIs()
		if req.Caller == etcdshapes.CallerEtcd {
			n, err = naming.ForEtcdChart(req.Namespace, naming.EtcdChartRelease)
		} else {
			n, err = naming.ForCluster(req.Namespace, req.Release)
		}
		if err != nil {
			continue
		}
		objs, err := etcdshapes.Render(req)
		require.NoError(t, err)
		if len(objs) == 0 {
			continue // a cluster on a shared datastore renders nothing
		}
		fromRender, ofStack, err := plan.ScopeKeys(objs, n)
		require.NoError(t, err)
		assert.Equal(t, ofStack, fromRender, s.Name)
	}
}
