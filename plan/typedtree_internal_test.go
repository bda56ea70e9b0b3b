package plan

import (
	"github.com/etcdshapes/etcdshapes"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

// The plan's tree of a typed object is the printed YAML document's, for
// every object of every stack the builders render.
func TestTypedTreeIsThePrintedDocument(t *testing.T) {
	var objs []etcdshapes.Object
	chart, err := etcdshapes.EtcdChartStack(etcdshapes.EtcdChartStackOptions{Namespace: "tenant-root", Release: "etcd"})
	require.NoError(t, err)
	objs = append(objs, chart...)
	cluster, err := etcdshapes.ClusterStack(etcdshapes.ClusterStackOptions{Namespace: "tenant-demo", Release: "kubernetes-demo",
		APIVersions: []string{etcdshapes.APICiliumNetworkPolicy, etcdshapes.APIVerticalPodAutoscaler, etcdshapes.APIVMPodScrape}})
	require.NoError(t, err)
	objs = append(objs, cluster...)
	for _, o := range objs {
		fast, normal, err := typedTree("o", o)
		require.NoError(t, err)
		assert.True(t, normal, "the fast path's tree is in the plan's form")
		slow, err := typedTreeViaYAML("o", o)
		require.NoError(t, err)
		want, err := normalize(slow)
		require.NoError(t, err)
		assert.Equal(t, want, any(fast), "%s %s", o.GetObjectKind().GroupVersionKind().Kind, o.GetName())
		assert.True(t, isNormal(fast))
	}
}
