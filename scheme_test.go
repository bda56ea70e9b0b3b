package etcdshapes_test

import (
	"testing"

	"github.com/etcdshapes/etcdshapes"
	"github.com/etcdshapes/etcdshapes/golden"
	"github.com/stretchr/testify/require"
	"k8s.io/apimachinery/pkg/api/equality"
	"k8s.io/apimachinery/pkg/runtime"
	"k8s.io/apimachinery/pkg/runtime/serializer"
)

// Every object of every golden scenario is known to the scheme under the
// GroupVersionKind it carries, and survives an apimachinery codec round trip
// (encode, decode into a fresh typed object) unchanged.
func TestObjectsRoundTripThroughScheme(t *testing.T) {
	scheme := runtime.NewScheme()
	require.NoError(t, etcdshapes.AddToScheme(scheme))
	codecs := serializer.NewCodecFactory(scheme, serializer.EnableStrict)
	info, ok := runtime.SerializerInfoForMediaType(codecs.SupportedMediaTypes(), runtime.ContentTypeJSON)
	require.True(t, ok)
	decoder := codecs.UniversalDeserializer()

	count := 0
	for _, s := range golden.All() {
		objs, err := s.Render()
		require.NoError(t, err, s.Name)
		for _, o := range objs {
			gvk := o.GetObjectKind().GroupVersionKind()
			kinds, _, err := scheme.ObjectKinds(o)
			require.NoError(t, err, "%s: %s not registered", s.Name, gvk)
			require.Contains(t, kinds, gvk, "%s: %T registered under another kind", s.Name, o)

			data, err := runtime.Encode(info.Serializer, o)
			require.NoError(t, err)
			back, gotGVK, err := decoder.Decode(data, nil, nil)
			require.NoError(t, err, "%s: strict decode of %s %s", s.Name, gvk.Kind, o.GetName())
			require.Equal(t, gvk, *gotGVK)
			require.True(t, equality.Semantic.DeepEqual(o, back), "%s: %s %s changed in a round trip", s.Name, gvk.Kind, o.GetName())

			clone := o.DeepCopyObject()
			require.True(t, equality.Semantic.DeepEqual(o, clone), "DeepCopy of %s", gvk.Kind)
			count++
		}
	}
	t.Logf("%d objects round-tripped", count)
}
