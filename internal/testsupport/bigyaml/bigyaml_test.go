package bigyaml

import (
	"testing"

	"github.com/etcdshapes/etcdshapes/internal/inputlimit"
	"github.com/stretchr/testify/require"
	"sigs.k8s.io/yaml"
)

// TestLiveListIsOnePrint: the List printed a step at a time is the List
// printed whole, of at least the nodes asked for and close to it.
func TestLiveListIsOnePrint(t *testing.T) {
	for _, nodes := range []int{1, 9_000, 20_000} {
		items, b, err := liveList("tenant-root", nodes)
		require.NoError(t, err)
		whole, err := yaml.Marshal(map[string]any{"apiVersion": "v1", "kind": "List", "metadata": map[string]any{"resourceVersion": ""}, "items": items})
		require.NoError(t, err)
		require.Equal(t, string(whole), string(b), "%d nodes", nodes)
		n := inputlimit.Lex(b).Nodes
		require.GreaterOrEqual(t, n, nodes)
		require.Less(t, n, nodes+1000, "one item past it at most")
	}
}

// TestValuesNodes: the values file has at least the nodes asked for and
// close to it, whichever kind of setting comes last.
func TestValuesNodes(t *testing.T) {
	for nodes := 5_000; nodes < 5_072; nodes += 3 {
		b, err := Values(nodes)
		require.NoError(t, err)
		n := inputlimit.Lex(b).Nodes
		require.GreaterOrEqual(t, n, nodes)
		require.LessOrEqual(t, n, nodes+12, "one setting past it at most")
	}
	var v map[string]any
	b, err := Values(20_000)
	require.NoError(t, err)
	require.NoError(t, yaml.Unmarshal(b, &v))
	require.Contains(t, v["_cluster"], "dashboard-7")
}
