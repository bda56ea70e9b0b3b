package plan_test

import (
	"github.com/etcdshapes/etcdshapes/plan"
	"sort"
	"strings"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/stacknames"
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
		req.APIVersions = etcdshapes.OptionalAPIs()
		n, err := stacknames.Of(req.Caller, req.Namespace, req.Release)
		require.NoError(t, err, s.Name)
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

// The plan's scope of a stack is etcdshapes.Scope's, for both callers and
// names of every length class (short, at the naming limits): the plan
// builds it without the dashboard's model, so this pins that it names the
// same objects.
func TestStackScopeIsScope(t *testing.T) {
	var names []naming.Names
	for _, ns := range []string{"tenant-a", "tenant-" + strings.Repeat("n", 40), "t"} {
		if n, err := naming.ForEtcdChart(ns, naming.EtcdChartRelease); err == nil {
			names = append(names, n)
		}
		for _, rel := range []string{"kubernetes-a", "k", "kubernetes-" + strings.Repeat("r", 30)} {
			if n, err := naming.ForCluster(ns, rel); err == nil {
				names = append(names, n)
			}
		}
	}
	require.GreaterOrEqual(t, len(names), 6)
	for _, n := range names {
		objs, err := etcdshapes.Scope(n)
		require.NoError(t, err)
		want := make([]string, 0, len(objs))
		for _, o := range objs {
			want = append(want, o.Kind.Group+"/"+o.Kind.Kind+" "+o.Namespace+"/"+o.Name)
		}
		sort.Strings(want)
		got, err := plan.StackScopeKeys(n)
		require.NoError(t, err)
		assert.Equal(t, want, got, "%+v", n)
	}
}
