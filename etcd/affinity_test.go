package etcd_test

import (
	"testing"

	"github.com/etcdshapes/etcdshapes/etcd"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	corev1 "k8s.io/api/core/v1"
)

// TestEmptyAffinityIsTheDefault: an Affinity that sets none of its fields
// is the chart's "affinity: {}", the default soft anti-affinity (as nil
// is), where a set field, even an empty one, is kept as given.
func TestEmptyAffinityIsTheDefault(t *testing.T) {
	n := etcdNames(t)
	def, err := etcd.Cluster(n, etcd.Options{})
	require.NoError(t, err)
	require.NotNil(t, def.Spec.Affinity.PodAntiAffinity)
	empty, err := etcd.Cluster(n, etcd.Options{Affinity: &corev1.Affinity{}})
	require.NoError(t, err)
	assert.Equal(t, def.Spec.Affinity, empty.Spec.Affinity)
	kept, err := etcd.Cluster(n, etcd.Options{Affinity: &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{}}})
	require.NoError(t, err)
	assert.Equal(t, &corev1.Affinity{PodAntiAffinity: &corev1.PodAntiAffinity{}}, kept.Spec.Affinity)
}
