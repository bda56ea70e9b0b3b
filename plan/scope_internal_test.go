package plan

import (
	"slices"
	"strconv"
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/etcdshapes/etcdshapes/internal/testsupport/stacknames"
	"github.com/stretchr/testify/require"
)

// ForRequest takes the scope of its render for the stack's unless a live
// object is of an optional kind the render was not given
// (needsStackScope). That holds only if a render lacks nothing of its
// stack but those kinds' objects: for every golden scenario's request,
// with its own served APIs and with none, each one alone, all but each
// one, and all.
func TestRenderScopeLacksOnlyUnlistedKinds(t *testing.T) {
	all := etcdshapes.OptionalAPIs()
	apiSets := [][]string{nil, all}
	for _, api := range all {
		apiSets = append(apiSets, []string{api}, slices.DeleteFunc(slices.Clone(all), func(a string) bool { return a == api }))
	}
	checked := 0
	for _, s := range golden.All() {
		req, err := s.Request()
		require.NoError(t, err)
		n, err := stacknames.Of(req.Caller, req.Namespace, req.Release)
		require.NoError(t, err, s.Name)
		full, err := stackScope(n)
		require.NoError(t, err)
		for _, apis := range append([][]string{req.APIVersions}, apiSets...) {
			req.APIVersions = apis
			objs, err := etcdshapes.Render(req)
			require.NoError(t, err)
			if len(objs) == 0 {
				continue // a cluster on a shared datastore: ForRequest takes stackScope
			}
			rendered := scopeOf(objs)
			for k := range rendered {
				require.True(t, full[k], "%s %v: %v rendered but not in the stack's scope", s.Name, apis, k)
			}
			lacking := unlistedKinds(req.Caller, apis)
			for k := range full {
				if !rendered[k] {
					require.Contains(t, lacking, k.groupKind(), "%s %v: the render lacks %v", s.Name, apis, k)
				}
			}
			checked++
		}
	}
	require.Greater(t, checked, 50)
}

// hookHead reads a typed uninstall hook's identity as planHead does from
// its whole tree, for every hook of every golden scenario's render.
func TestHookHeadIsPlanHeads(t *testing.T) {
	hooks := 0
	for _, s := range golden.All() {
		req, err := s.Request()
		require.NoError(t, err)
		objs, err := etcdshapes.Render(req)
		require.NoError(t, err)
		for i, o := range objs {
			if !isTypedUninstallHook(o) {
				continue
			}
			hooks++
			short, err := hookHead("desired", o)
			require.NoError(t, err)
			full, err := planHead("desired", o, false)
			require.NoError(t, err)
			require.Equal(t, full.key, short.key, "%s [%d]", s.Name, i)
			require.Equal(t, full.ref, short.ref, "%s [%d]", s.Name, i)
		}
	}
	require.Greater(t, hooks, 20)
}

// indexedField names an object as the plan's errors do, below and beyond
// the names it makes once.
func TestIndexedField(t *testing.T) {
	for _, side := range []string{"live", "desired", "other"} {
		for _, i := range []int{0, 9, 10, indexedFieldsLen - 1, indexedFieldsLen, 100000} {
			require.Equal(t, side+"["+strconv.Itoa(i)+"]", indexedField(side, i))
		}
	}
}
